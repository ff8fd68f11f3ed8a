import { useEffect, useRef } from 'react';
import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './root';
import { useSession, useSessionActor } from '../session';
import { StatusPage } from '../ui/status-page';
import { Spinner } from '../ui/spinner';
import { useDocumentTitle } from './use-document-title';
import { fr } from '../i18n/fr';

const ACCEPTS_SIGN_OUT = new Set(['signedOut', 'startingSignIn', 'signedIn', 'polling', 'deactivated']);

/** Empties local and session storage, expires the cookie and signs out at the provider. */
function SignOut() {
  const actor = useSessionActor();
  const state = useSession((s) => String(s.value));
  const sent = useRef(false);
  useDocumentTitle(fr.shell.nav.signOut);
  useEffect(() => {
    if (!sent.current && ACCEPTS_SIGN_OUT.has(state)) {
      sent.current = true;
      actor.send({ type: 'session.signOut' });
    }
  }, [state, actor]);
  return (
    <StatusPage title={fr.shell.nav.signOut}>
      <Spinner label={fr.auth.signingOut} />
    </StatusPage>
  );
}

export const signOutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/authentication/sign-out',
  component: SignOut,
});
