import { useEffect, useRef } from 'react';
import { createRoute, useRouter } from '@tanstack/react-router';
import { rootRoute } from './root';
import { useSession, useSessionActor } from '../session';
import { StatusPage } from '../ui/status-page';
import { Spinner } from '../ui/spinner';
import { useDocumentTitle } from './use-document-title';
import { fr } from '../i18n/fr';

/**
 * The post-login steps of spec §2: the session machine waits 1 s, acquires the token
 * silently, writes the cookie, checks the subject and loads the profile; this screen
 * follows it to /dashboard, to sign-out (inactive account) or back to sign-in.
 */
function RedirectLogin() {
  const router = useRouter();
  const actor = useSessionActor();
  const state = useSession((s) => String(s.value));
  const started = useRef(false);
  useDocumentTitle(fr.auth.completing);
  useEffect(() => {
    if (state === 'signedIn' || state === 'polling') {
      void router.navigate({ to: '/dashboard', replace: true });
    } else if (state === 'deactivated') {
      void router.navigate({ to: '/authentication/sign-out', replace: true });
    } else if (state === 'signedOut') {
      if (started.current) void router.navigate({ to: '/authentication/sign-in', replace: true });
      else {
        started.current = true;
        actor.send({ type: 'session.completeLogin' });
      }
    }
  }, [state, actor, router]);
  return (
    <StatusPage title={fr.auth.completing}>
      <Spinner label={fr.auth.completing} />
    </StatusPage>
  );
}

export const redirectLoginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/authentication/redirect-login',
  component: RedirectLogin,
});
