import { useTranslation } from 'react-i18next';
import type { CursorPages } from '../live';
import './features.css';

/** Earlier and later pages of a list read by cursor, the page's number, and that the list is live. */
export function Pager({ label, pages, nextCursor, hasMore, total, pageSize }: { label: string; pages: CursorPages; nextCursor: string | null | undefined; hasMore: boolean; total?: number; pageSize: number }) {
  const { t } = useTranslation('features');
  const count = total === undefined ? null : Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="pager actions" aria-label={label}>
      <button type="button" className="secondary" disabled={pages.page === 1} onClick={pages.previous}>
        {t('pager.previous')}
      </button>
      <span className="muted">{count === null ? t('pager.page', { page: pages.page }) : t('pager.pageOf', { page: pages.page, count })}</span>
      <button type="button" className="secondary" disabled={!hasMore || !nextCursor} onClick={() => nextCursor && pages.next(nextCursor)}>
        {t('pager.next')}
      </button>
      <span className="muted live-note">{t('pager.live')}</span>
    </nav>
  );
}
