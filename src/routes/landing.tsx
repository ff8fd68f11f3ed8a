import { useEffect } from 'react';
import { createRoute, useRouter } from '@tanstack/react-router';
import { rootRoute } from './root';
import { useSession } from '../session';
import { isSignedIn } from '../machines/session/session.selectors';
import { LandingPage } from '../ui/landing-page';
import { useDocumentTitle } from '../lib/use-document-title';
import { frShell as fr } from '../i18n/fr-shell';
import { accessibilityLink } from '../lib/accessibility-link';

function Landing() {
  const router = useRouter();
  const signedIn = useSession(isSignedIn);
  const { config } = landingRoute.useRouteContext();
  useDocumentTitle(fr.landing.title);
  // The provider's sign-out comes back with ?state=…, which means nothing here.
  useEffect(() => {
    if (window.location.search) void router.navigate({ to: '/', replace: true });
  }, [router]);
  return (
    <LandingPage
      signedIn={signedIn}
      onSignIn={() => void router.navigate({ to: '/authentication/sign-in' })}
      onOpenPortal={() => void router.navigate({ to: '/dashboard' })}
      accessibility={accessibilityLink(config)}
    />
  );
}

export const landingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: Landing,
});
