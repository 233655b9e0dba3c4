import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFormError, request } from '../api';
import { MeDocument, SignInDocument, SignUpDocument } from '../gql/graphql';
import { PasskeySignIn, PasskeySignUp } from '../components/PasskeyButtons';
import { href } from '../router';
import { TOKEN_REFUSED_NOTICE, useSession } from '../session';
import { ENDED_NOTICE } from '../token-keeper';
import { useAction } from '../hooks';
import { ErrorText, PlayerNameInput } from '../ui';

/** Signing in (name or email, and password) and signing up; `/sign-up` puts signing up first. */
export function SignInScreen({ first = 'sign-in' }: { first?: 'sign-in' | 'sign-up' }) {
  const { t } = useTranslation('auth');
  const { notice } = useSession();
  return (
    <div className="signin">
      <h1>{t('signIn.title')}</h1>
      <p>{t('signIn.intro')}</p>
      {notice && (
        <p className="notice" role="status">
          {notice === ENDED_NOTICE ? t('notice.ended') : notice === TOKEN_REFUSED_NOTICE ? t('notice.tokenRefused') : notice}
        </p>
      )}
      <div className="columns">
        {first === 'sign-up' ? (
          <>
            <SignUp />
            <PasswordSignIn />
          </>
        ) : (
          <>
            <PasswordSignIn />
            <SignUp />
          </>
        )}
      </div>
      <div className="columns">
        <PasskeySignUp />
        <section className="panel" aria-labelledby="passkey-signin-title">
          <h2 id="passkey-signin-title">{t('passkey.have')}</h2>
          <PasskeySignIn />
        </section>
      </div>
      <TokenSignIn />
    </div>
  );
}

function PasswordSignIn() {
  const { t } = useTranslation('auth');
  const { signInWithSession } = useSession();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run: submit } = useAction(
    async () => {
      const { signIn } = await request(SignInDocument, { login: login.trim(), password }, null);
      signInWithSession(signIn);
    },
    { staysBusy: true },
  );

  return (
    <form className="panel" onSubmit={submit} aria-labelledby="signin-title">
      <h2 id="signin-title">{t('signIn.heading')}</h2>
      <ErrorText error={error} />
      <label htmlFor="signin-login">{t('signIn.login')}</label>
      <input id="signin-login" name="username" autoComplete="username" required value={login} onChange={(e) => setLogin(e.target.value)} />
      <label htmlFor="signin-password">{t('signIn.password')}</label>
      <input id="signin-password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          {t('signIn.submit')}
        </button>
        <a href={href.forgotPassword()}>{t('forgot.title')}</a>
      </div>
    </form>
  );
}

function SignUp() {
  const { t } = useTranslation('auth');
  const { signInWithSession } = useSession();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState('');
  const { busy, error, run: submit } = useAction(
    async () => {
      const { signUp } = await request(SignUpDocument, { name: name.trim(), password, email: email.trim() || null }, null);
      signInWithSession(signUp);
    },
    { staysBusy: true },
  );

  return (
    <form className="panel" onSubmit={submit} aria-labelledby="signup-title">
      <h2 id="signup-title">{t('signUp.heading')}</h2>
      <ErrorText error={error} />
      <label htmlFor="signup-name">{t('signUp.name')}</label>
      <PlayerNameInput id="signup-name" value={name} onChange={setName} describedBy="signup-name-hint" />
      <p id="signup-name-hint" className="hint">
        {t('signUp.nameHint')}
      </p>
      <label htmlFor="signup-password">{t('signUp.password')}</label>
      <input id="signup-password" minLength={8} maxLength={256} name="new-password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby="signup-password-hint" />
      <p id="signup-password-hint" className="hint">
        {t('signUp.passwordHint')}
      </p>
      <label htmlFor="signup-email">{t('signUp.email')}</label>
      <input id="signup-email" name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} aria-describedby="signup-email-hint" />
      <p id="signup-email-hint" className="hint">
        {t('signUp.emailHint')}
      </p>
      <button type="submit" disabled={busy}>
        {t('signUp.submit')}
      </button>
    </form>
  );
}

/** For a bot's owner: a personal API token (`mzk_…`), checked with `me` before it is kept. */
function TokenSignIn() {
  const { t } = useTranslation('auth');
  const { signIn } = useSession();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { me } = await request(MeDocument, {}, token.trim());
      signIn(token.trim(), me.name);
    } catch (e) {
      setError(describeFormError(e));
      setBusy(false);
    }
  };

  return (
    <details className="panel">
      <summary>{t('token.summary')}</summary>
      <form onSubmit={submit} aria-label={t('token.form')}>
        <ErrorText error={error} />
        <label htmlFor="signin-token">{t('token.label')}</label>
        <input id="signin-token" name="token" autoComplete="off" required value={token} onChange={(e) => setToken(e.target.value)} />
        <button type="submit" disabled={busy}>
          {t('token.submit')}
        </button>
      </form>
    </details>
  );
}
