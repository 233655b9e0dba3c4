import { request } from '../api';
import { useTranslation } from 'react-i18next';
import { MyAccountDocument } from '../gql/graphql';
import { AuthorizedApps } from '../components/AuthorizedApps';
import { useLoad } from '../hooks';
import { useSession, useToken } from '../session';
import { LoadState } from '../ui';
import { EmailSection } from './account/Email';
import { PasskeysSection } from './account/Passkeys';
import { PasswordSection } from './account/Password';
import { BrowserTokenSection, PersonalTokensSection } from './account/PersonalTokens';
import { SessionsSection } from './account/Sessions';

/**
 * The account: where the player is signed in, the password, the email address, then (each a
 * section of its own in ./account/) the passkeys and the apps the player authorized, and the
 * personal API tokens. A section takes `account` (myAccount) and `onChange` to load it again.
 */
export function AccountScreen() {
  const { t } = useTranslation('account');
  const token = useToken();
  const { name, kind, signOut } = useSession();
  const account = useLoad(() => request(MyAccountDocument, {}, token).then((r) => r.myAccount), [token]);

  return (
    <>
      <h1>{t('title')}</h1>
      <div className="actions">
        <span>{t('signedInAs', { name })}</span>
        <button type="button" className="secondary" onClick={signOut}>
          {kind === 'session' ? t('signOut') : t('signOutToken')}
        </button>
      </div>
      {kind === 'personal' && <BrowserTokenSection />}
      <SessionsSection />
      <LoadState error={account.error} loading={!account.data} what={t('loading')}>
        {account.data && (
          <>
            <PasswordSection account={account.data} onChange={account.reload} />
            <EmailSection account={account.data} onChange={account.reload} />
            <PasskeysSection onChange={account.reload} />
          </>
        )}
      </LoadState>
      <AuthorizedApps />
      <PersonalTokensSection />
    </>
  );
}
