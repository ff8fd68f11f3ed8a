import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createActor } from 'xstate';
import './index.css';
import { loadAppConfig } from './app-config';
import { ApiFailure, createApiClient } from './api/client';
import { createMsalInstance } from './auth/msal';
import { readTokenCookie } from './auth/token-cookie';
import { sessionMachine } from './machines/session/session.machine';
import { readCachedProfile, sessionActors } from './machines/session/session.actors';
import { SessionProvider } from './session';
import { createAppRouter } from './router';
import { warmUpCaches } from './warm-up';
import { StatusPage } from './ui/status-page';
import { Toaster } from './ui/toaster';

async function start(rootElement: HTMLElement) {
  const root = createRoot(rootElement);
  let config;
  try {
    config = await loadAppConfig();
  } catch (error) {
    root.render(
      <StatusPage title="Portail Habilitations">
        <p role="alert">{(error as Error).message}</p>
      </StatusPage>,
    );
    return;
  }
  const msal = createMsalInstance(config);
  // The bearer token: the session's copy in memory, else the cookie.
  let tokenSource: () => string | null = () => readTokenCookie();
  const api = createApiClient({ baseUrl: config.apiBase, getToken: () => tokenSource() });
  const session = createActor(
    sessionMachine.provide(sessionActors({ msal, api, cookieDomain: config.cookieDomain, passwordResetAuthority: config.auth.passwordResetAuthority })),
    { input: { cachedProfile: readCachedProfile() } },
  );
  tokenSource = () => session.getSnapshot().context.token ?? readTokenCookie();
  window.addEventListener('storage', () => session.send({ type: 'session.storageChanged' }));
  session.start();

  const queryClient = new QueryClient({
    // Spec §9: 3 retries, 5 minutes, delays doubling up to 30 s; a refusal (4xx) is an answer, not a failure to retry.
    defaultOptions: {
      queries: {
        staleTime: 5 * 60_000,
        gcTime: 5 * 60_000,
        retry: (count, error) => count < 3 && !(error instanceof ApiFailure && error.status >= 400 && error.status < 500),
        retryDelay: (n) => Math.min(1000 * 2 ** n, 30_000),
      },
    },
  });
  warmUpCaches(session, queryClient, api);
  const router = createAppRouter({ session, config, api, queryClient });
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SessionProvider actor={session}>
          <Toaster>
            <RouterProvider router={router} />
          </Toaster>
        </SessionProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

const rootElement = document.getElementById('root');
if (rootElement) void start(rootElement);
