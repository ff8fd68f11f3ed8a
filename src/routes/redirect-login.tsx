import { useEffect } from 'react';
import { createRoute, useRouter } from '@tanstack/react-router';
import { rootRoute } from './root';
import { useSession, useSessionActor } from '../session';
import { hasLoginFailed, isSignedIn, isSignedOut } from '../machines/session/session.selectors';
import { StatusPage } from '../ui/status-page';
import { takeEmailConfirmation } from '../auth/return-after-sign-in';
import { Spinner } from '../ui/spinner';
import { useDocumentTitle } from '../lib/use-document-title';
import { frShell as fr } from '../i18n/fr-shell';

/**
 * The post-login steps of spec §2 run in the session machine (1 s, silent token, cookie,
 * subject, profile); this screen starts them and follows the outcome: /dashboard (or the e-mail
 * confirmation the person came from, src/auth/return-after-sign-in.ts), or back to sign-in. An inactive account is sent to sign-out by the root route.
 */
function RedirectLogin() {
  const router = useRouter();
  const actor = useSessionActor();
  const signedIn = useSession(isSignedIn);
  const signedOut = useSession(isSignedOut);
  const failed = useSession(hasLoginFailed);
  useDocumentTitle(fr.auth.completing);
  useEffect(() => {
    // /dashboard (spec §2), or back to the e-mail confirmation that sent the person to sign in.
    if (signedIn) void router.navigate({ ...(takeEmailConfirmation() ?? { to: '/dashboard' }), replace: true });
    else if (failed) void router.navigate({ to: '/authentication/sign-in', replace: true });
    else if (signedOut) actor.send({ type: 'session.completeLogin' });
  }, [signedIn, signedOut, failed, actor, router]);
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
