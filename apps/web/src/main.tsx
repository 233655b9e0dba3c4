import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { adoptPathRoute } from './router';
import { SessionProvider } from './session';
import './styles.css';

// A link from a mail or an app (/verify-email?token=…) lands on its hash route.
adoptPathRoute();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <App />
    </SessionProvider>
  </StrictMode>,
);
