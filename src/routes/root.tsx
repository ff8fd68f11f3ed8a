import { createRootRouteWithContext, Outlet, useRouter } from '@tanstack/react-router';
import type { RouterContext } from '../router-context';
import { NotFoundPage } from '../ui/not-found-page';

function NotFound() {
  const router = useRouter();
  return <NotFoundPage onHome={() => void router.navigate({ to: '/' })} />;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
});
