import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { App } from './App';
import { adoptPathRoute } from './router';
import { listenToServiceWorker } from './screens/settings/PushDevices';
import { SessionProvider } from './session';
import './styles.css';

// A link from a mail or an app (/verify-email?token=…) lands on its hash route.
adoptPathRoute();
// A notification clicked while this tab was open: the service worker may ask it to open the table.
listenToServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <App />
    </SessionProvider>
  </StrictMode>,
);
