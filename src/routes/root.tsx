import { useEffect } from 'react';
import { createRootRouteWithContext, Outlet, useRouter } from '@tanstack/react-router';
import type { RouterContext } from '../router-context';
import { useSession } from '../session';
import { isDeactivated } from '../machines/session/session.selectors';
import { NotFoundPage } from '../ui/not-found-page';
import { useDocumentTitle } from '../lib/use-document-title';
import { frShell as fr } from '../i18n/fr-shell';

function NotFound() {
  const router = useRouter();
  useDocumentTitle(fr.notFound.title);
  return <NotFoundPage onHome={() => void router.navigate({ to: '/' })} />;
}

/** Whatever the page, an account found inactive (at sign-in or later) is told so and signed out (§2). */
function Root() {
  const router = useRouter();
  const deactivated = useSession(isDeactivated);
  useEffect(() => {
    if (deactivated) void router.navigate({ to: '/authentication/sign-out', replace: true });
  }, [deactivated, router]);
  return <Outlet />;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFound,
});
