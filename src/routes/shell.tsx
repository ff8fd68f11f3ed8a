import { lazy, Suspense } from 'react';
import { createRoute, Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { rootRoute } from './root';
import { Guarded } from '../features/session/guarded';
import { useSession } from '../session';
import { sessionNotice } from '../machines/session/session.selectors';
import type { SessionProfile } from '../machines/session/session.machine';
import { navigationFor } from '../domain/navigation';
import { permissionsOf } from '../../rules/permissions';
import { roleDisplayLabel } from '../../rules/roles';
import { AppShell } from '../ui/app-shell';
import { accessibilityLink } from '../lib/accessibility-link';
import type { AppConfig } from '../app-config';
import type { ProfileSummary } from '../ui/profile-panel';
import { frShell as fr } from '../i18n/fr-shell';

function profileSummary(user: SessionProfile): ProfileSummary {
  return {
    email: user.email,
    userType: user.userType,
    permissions: [...permissionsOf(user)].sort(),
    organizations: (user.organizations ?? []).map((o, index) => ({ key: `${o.id}-${index}`, name: o.name ?? o.code, code: o.code, role: roleDisplayLabel(o.role.name) })),
  };
}

// Issue 23: one's own data on request, in 'Mon profil'; loaded when the panel is first opened.
const PersonalDataFlow = lazy(() => import('../features/personal-data/personal-data-flow'));

function footerLinks(config: AppConfig) {
  const base = config.publicSiteUrl.endsWith('/') ? config.publicSiteUrl : `${config.publicSiteUrl}/`;
  return [
    { label: fr.shell.footer.legal, href: `${base}mentions-legales` },
    { label: fr.shell.footer.personalData, href: `${base}donnees-personnelles` },
    { label: fr.shell.footer.terms, href: `${base}conditions-generales-utilisation` },
    { label: fr.shell.footer.cookies, href: `${base}gestion-des-cookies` },
    accessibilityLink(config),
  ];
}

function SignedInShell() {
  const router = useRouter();
  const { config, api } = shellRoute.useRouteContext();
  const user = useSession((s) => s.context.profile);
  const notice = useSession(sessionNotice);
  const currentPath = useRouterState({ select: (s) => s.location.pathname });
  if (!user) return null;
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  return (
    <AppShell
      entries={navigationFor(user)}
      currentPath={currentPath}
      email={user.email}
      profile={profileSummary(user)}
      profileActions={
        user.isActive ? (
          <Suspense fallback={null}>
            <PersonalDataFlow api={api} userId={null} self tone="dark" />
          </Suspense>
        ) : null
      }
      onNavigate={(href) => void router.navigate({ to: href })}
      greetingName={name}
      memberAreaUrl={config.memberAreaUrl}
      footerLinks={footerLinks(config)}
      notice={notice}
    >
      <Outlet />
    </AppShell>
  );
}

/** The layout of every signed-in screen: guarded, inside the shell (a route with a further requirement also checks it before load). */
export const shellRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'shell',
  component: () => (
    <Guarded>
      <SignedInShell />
    </Guarded>
  ),
});
