import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from './components/LanguagePicker';
import { useLinkState } from './hooks';
import { href, useRoute, type Route } from './router';
import { useSession } from './session';
import { AccountScreen } from './screens/Account';
import { ForgotPasswordScreen } from './screens/ForgotPassword';
import { HistoryScreen } from './screens/History';
import { JoinScreen } from './screens/Join';
import { LobbiesScreen } from './screens/Lobbies';
import { LobbyScreen } from './screens/Lobby';
import { OAuthConsentScreen } from './screens/OAuthConsent';
import { ReplayScreen } from './screens/Replay';
import { ResetPasswordScreen } from './screens/ResetPassword';
import { ScoreSheetScreen } from './screens/ScoreSheet';
import { SettingsScreen } from './screens/Settings';
import { SignInScreen } from './screens/SignIn';
import { TableScreen } from './screens/Table';
import { TournamentScreen } from './screens/Tournament';
import { TournamentsScreen } from './screens/Tournaments';
import { TurnsScreen } from './screens/Turns';
import { VerifyEmailScreen } from './screens/VerifyEmail';

const NAV: { to: string; label: string; screens: Route['screen'][] }[] = [
  { to: href.lobbies(), label: 'nav.lobbies', screens: ['lobbies', 'lobby', 'join'] },
  { to: href.turns(), label: 'nav.turns', screens: ['turns'] },
  { to: href.tournaments(), label: 'nav.tournaments', screens: ['tournaments', 'tournament'] },
  { to: href.history(), label: 'nav.history', screens: ['history'] },
  { to: href.settings(), label: 'nav.settings', screens: ['settings'] },
  { to: href.account(), label: 'nav.account', screens: ['account'] },
];

function Screen({ route }: { route: Route }) {
  switch (route.screen) {
    case 'lobbies':
    case 'sign-in':
    case 'sign-up':
      return <LobbiesScreen />;
    case 'lobby':
      return <LobbyScreen lobbyId={route.lobbyId} />;
    case 'join':
      return <JoinScreen inviteCode={route.inviteCode} />;
    case 'table':
      return <TableScreen key={route.gameId} gameId={route.gameId} />;
    case 'scores':
      return <ScoreSheetScreen gameId={route.gameId} />;
    case 'replay':
      return <ReplayScreen key={route.gameId} gameId={route.gameId} />;
    case 'turns':
      return <TurnsScreen />;
    case 'tournaments':
      return <TournamentsScreen />;
    case 'tournament':
      return <TournamentScreen key={route.tournamentId} tournamentId={route.tournamentId} inviteCode={route.inviteCode} />;
    case 'history':
      return <HistoryScreen />;
    case 'account':
      return <AccountScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'oauthConsent':
      return <OAuthConsentScreen requestId={route.requestId} />;
    case 'forgot-password':
      return <ForgotPasswordScreen />;
    case 'verify-email':
      return <VerifyEmailScreen token={route.token} />;
    case 'reset-password':
      return <ResetPasswordScreen key={route.token} token={route.token} />;
  }
}

/** What a visitor who is not signed in sees: the public screens, else signing in. */
function SignedOut({ route }: { route: Route }) {
  switch (route.screen) {
    case 'forgot-password':
    case 'verify-email':
    case 'reset-password':
      return <Screen route={route} />;
    case 'sign-up':
      return <SignInScreen first="sign-up" />;
    default:
      return <SignInScreen />;
  }
}

export function App() {
  const { t } = useTranslation();
  const { token, name } = useSession();
  const route = useRoute();
  const link = useLinkState();
  const main = useRef<HTMLElement>(null);
  // A new screen takes the focus to its content, as a page load would (keyboard and screen readers).
  useEffect(() => {
    main.current?.focus({ preventScroll: true });
  }, [route.screen]);

  return (
    <>
      <a className="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        {t('skip')}
      </a>
      <header className="top">
        <a className="brand" href={href.lobbies()}>
          Mizerka
        </a>
        {token && (
          <nav aria-label={t('nav.label')}>
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <a href={item.to} aria-current={item.screens.includes(route.screen) ? 'page' : undefined}>
                    {t(item.label)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        {token && <span className="who">{t('signedInAs', { name })}</span>}
        <LanguagePicker />
      </header>
      {token && link === 'reconnecting' && (
        <p className="banner" role="status">
          {t('reconnecting')}
        </p>
      )}
      <main id="main" ref={main} tabIndex={-1}>
        {token ? <Screen route={route} /> : <SignedOut route={route} />}
      </main>
    </>
  );
}
