import { useTranslation } from 'react-i18next';
import type { CursorPages } from '../live';
import { Pager } from './Pager';

/** The open lobbies' pages (20 a page, newest first), shown once there is more than one. */
export function LobbyPager({ pages, page }: { pages: CursorPages; page: { hasMore: boolean; nextCursor?: string | null; total: number } }) {
  const { t } = useTranslation('features');
  if (pages.page === 1 && !page.hasMore) return null;
  return <Pager label={t('lobbies.pager')} pages={pages} nextCursor={page.nextCursor} hasMore={page.hasMore} total={page.total} pageSize={20} />;
}
