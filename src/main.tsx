import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { createActor } from 'xstate';
import './index.css';
import { loadAppConfig } from './app-config';
import { createApiClient } from './api/client';
import { createQueryClient } from './api/query-client';
import { setBrowserCacheOwner } from './api/browser-cache-owner';
import type { IPublicClientApplication } from '@azure/msal-browser';
import { readTokenCookie } from './auth/token-cookie';
import { sessionMachine } from './machines/session/session.machine';
import { readCachedProfile, sessionActors, startEarlyProfile } from './machines/session/session.actors';
import { SessionProvider } from './session';
import { createAppRouter } from './router';
import { warmUpCaches } from './warm-up';
import { StatusPage } from './ui/status-page';
import { Toaster } from './ui/toaster';
import { nextTask } from './lib/next-task';

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
  // MSAL loads and starts once, when the session first needs it (session.actors.ts msalNeededAtStart).
  let msalReady: Promise<IPublicClientApplication> | null = null;
  const msal = () =>
    (msalReady ??= import('./auth/msal')
      .then(async ({ createMsalInstance }) => {
        const instance = createMsalInstance(config);
        await instance.initialize();
        return instance;
      })
      .catch((error: unknown) => {
        msalReady = null;
        throw error;
      }));
  // The bearer token: the session's copy in memory, else the cookie.
  let tokenSource: () => string | null = () => readTokenCookie();
  const api = createApiClient({ baseUrl: config.apiBase, getToken: () => tokenSource() });
  // A returning person's profile is asked for now, while MSAL starts (issue 18).
  const earlyProfile = startEarlyProfile(api, readTokenCookie());
  // The start-up in tasks the browser may paint and answer between (issue 18: a phone's Total Blocking Time):
  // the shell's module evaluation, then the session, the router, the screen's preload, and the first render.
  await nextTask();
  const session = createActor(
    sessionMachine.provide(sessionActors({ msal, api, cookieDomain: config.cookieDomain, passwordResetAuthority: config.auth.passwordResetAuthority, earlyProfile })),
    { input: { cachedProfile: readCachedProfile() } },
  );
  tokenSource = () => session.getSnapshot().context.token ?? readTokenCookie();
  // The organization lists kept in browser storage are the signed-in person's (src/api/browser-cache.ts).
  session.subscribe((snapshot) => setBrowserCacheOwner(snapshot.context.profile?.id ?? null));
  window.addEventListener('storage', () => session.send({ type: 'session.storageChanged' }));
  session.start();

  const queryClient = createQueryClient();
  warmUpCaches(session, queryClient, api);
  await nextTask();
  const router = createAppRouter({ session, config, api, queryClient, currentToken: () => tokenSource() });
  await nextTask();
  // The screen's code and data leave now, before the shell's first render rather than after it (issue 18).
  void router.preloadRoute({ to: '.', search: true });
  await nextTask();
  // A transition: React renders the first screen in slices of a few milliseconds instead of one long task.
  startTransition(() =>
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
    ),
  );
}

const rootElement = document.getElementById('root');
if (rootElement) void start(rootElement);
