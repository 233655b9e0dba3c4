import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import i18n from '../i18n';
import { describeFormError, request } from '../api';
import { FinishPasskeySignInDocument, FinishPasskeySignUpDocument, StartPasskeySignInDocument, StartPasskeySignUpDocument } from '../gql/graphql';
import { useSession } from '../session';
import { useAction } from '../hooks';
import { ErrorText, PlayerNameInput } from '../ui';

/** What to say when the browser's passkey prompt failed: cancelled, or no passkey here. */
export function describePasskeyError(error: unknown): string {
  if (error instanceof WebAuthnError || (error instanceof Error && error.name === 'NotAllowedError')) {
    return i18n.t('errors:passkeyNotUsed');
  }
  return describeFormError(error);
}

/** Sign in with a passkey: no name needed, the browser offers the ones it holds for this site. */
export function PasskeySignIn() {
  const { t } = useTranslation('auth');
  const { signInWithSession } = useSession();
  const { busy, error, run: signIn } = useAction(
    async () => {
      const { startPasskeySignIn } = await request(StartPasskeySignInDocument, {}, null);
      const response = await startAuthentication({ optionsJSON: startPasskeySignIn.options as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
      const { finishPasskeySignIn } = await request(FinishPasskeySignInDocument, { challengeId: startPasskeySignIn.challengeId, response }, null);
      signInWithSession(finishPasskeySignIn);
    },
    { describe: describePasskeyError, staysBusy: true },
  );
  if (!browserSupportsWebAuthn()) return null;

  return (
    <div className="passkey-signin">
      <ErrorText error={error} />
      <button type="button" onClick={() => void signIn()} disabled={busy}>
        {t('passkey.signIn')}
      </button>
    </div>
  );
}

/** Sign up with a passkey: a name, then the browser makes the passkey; no password at all. */
export function PasskeySignUp() {
  const { t } = useTranslation('auth');
  const { signInWithSession } = useSession();
  const [name, setName] = useState('');
  const { busy, error, run: submit } = useAction(
    async () => {
      const { startPasskeySignUp } = await request(StartPasskeySignUpDocument, { name: name.trim() }, null);
      const response = await startRegistration({ optionsJSON: startPasskeySignUp.options as Parameters<typeof startRegistration>[0]['optionsJSON'] });
      const { finishPasskeySignUp } = await request(FinishPasskeySignUpDocument, { challengeId: startPasskeySignUp.challengeId, response }, null);
      signInWithSession(finishPasskeySignUp);
    },
    { describe: describePasskeyError, staysBusy: true },
  );
  if (!browserSupportsWebAuthn()) return null;

  return (
    <form className="panel" onSubmit={submit} aria-labelledby="passkey-signup-title">
      <h2 id="passkey-signup-title">{t('passkey.signUp')}</h2>
      <ErrorText error={error} />
      <label htmlFor="passkey-signup-name">{t('signUp.name')}</label>
      <PlayerNameInput id="passkey-signup-name" value={name} onChange={setName} describedBy="passkey-signup-hint" autoComplete="username webauthn" />
      <p id="passkey-signup-hint" className="hint">
        {t('passkey.signUpHint')}
      </p>
      <button type="submit" disabled={busy}>
        {t('passkey.signUp')}
      </button>
    </form>
  );
}
