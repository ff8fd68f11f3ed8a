import { hasPermission, isBackOffice, type SessionUser } from '../../rules/permissions';

/**
 * The sidebar entries of spec §2 'Shell and sidebar', shown or hidden by permission, and one the spec does not
 * list: 'Journal des modifications' (issue 21), after 'Gestion des utilisateurs', for whoever may list users; and
 * 'Durées de conservation' (issue 23), after those, for the back office only.
 */
export type NavEntryId = 'home' | 'admin' | 'users' | 'journal' | 'retention' | 'profile' | 'signOut';

export interface NavEntry {
  id: NavEntryId;
  /** 'Mon profil' has no path: it opens the profile panel. */
  href: string | null;
}

export function navigationFor(user: SessionUser): NavEntry[] {
  const entries: NavEntry[] = [{ id: 'home', href: '/dashboard' }];
  if (isBackOffice(user)) entries.push({ id: 'admin', href: '/admin' });
  if (hasPermission(user, 'USER_LIST')) entries.push({ id: 'users', href: '/utilisateurs' }, { id: 'journal', href: '/journal' });
  if (isBackOffice(user)) entries.push({ id: 'retention', href: '/conservation' });
  entries.push({ id: 'profile', href: null }, { id: 'signOut', href: '/authentication/sign-out' });
  return entries;
}
