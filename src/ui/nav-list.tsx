import { useId, useState, type ReactNode } from 'react';
import type { NavEntry, NavEntryId } from '../domain/navigation';
import { frShell as fr } from '../i18n/fr-shell';
import { ProfilePanel, type ProfileSummary } from './profile-panel';

const LABELS: Record<NavEntryId, string> = {
  home: fr.shell.nav.home,
  admin: fr.shell.nav.admin,
  users: fr.shell.nav.users,
  journal: fr.shell.nav.journal,
  retention: fr.shell.nav.retention,
  profile: fr.shell.nav.profile,
  signOut: fr.shell.nav.signOut,
};

const ICONS: Record<NavEntryId, string> = {
  home: 'M3 10.5 12 3l9 7.5V21h-6v-6H9v6H3z',
  admin: 'M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5z',
  users: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zm-7 9c0-3.3 3.1-5 7-5s7 1.7 7 5m0-16.9a3.5 3.5 0 0 1 0 6.8M19 15.3c1.8.6 3 1.9 3 4.7',
  journal: 'M7 3h8l4 4v14H7zM15 3v4h4M10 11h6M10 15h6M10 19h3',
  retention: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 3',
  profile: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 9c0-3.9 3.1-6 7-6s7 2.1 7 6',
  signOut: 'M15 12H4m0 0 4-4m-4 4 4 4M14 4h6v16h-6',
};

/** The focus ring of the light theme does not show on the dark navigation. */
export const onDark = 'focus-visible:outline-white';

export function ShellIcon({ d, className = 'h-5 w-5' }: { d: string; className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={`${className} shrink-0`} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d={d} />
    </svg>
  );
}

export interface NavListProps {
  entries: NavEntry[];
  currentPath: string;
  profile: ProfileSummary;
  /** Drawn at the end of the 'Mon profil' panel. */
  profileActions?: ReactNode;
  /** Labels hidden visually (kept as accessible names and tooltips): the desktop rail. */
  collapsed: boolean;
  onNavigate: (href: string) => void;
  /** 'Mon profil' pressed in the rail: the panel needs the room of the unfolded sidebar. */
  onExpand: () => void;
}

/** The entries of spec §2 'Shell and sidebar', shared by the desktop sidebar and the phone drawer. */
export function NavList({ entries, currentPath, profile, profileActions, collapsed, onNavigate, onExpand }: NavListProps) {
  const [profileOpen, setProfileOpen] = useState(false);
  const profileId = useId();
  const itemClass = `flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm font-medium transition-colors ${onDark}`;
  return (
    <nav aria-label={fr.shell.nav.label} className="flex-1 px-2">
      <ul className="flex flex-col gap-1">
        {entries.map((entry) => {
          const label = LABELS[entry.id];
          if (entry.href === null) {
            return (
              <li key={entry.id}>
                <button
                  type="button"
                  aria-expanded={profileOpen && !collapsed}
                  aria-controls={profileId}
                  title={collapsed ? label : undefined}
                  onClick={() => {
                    if (collapsed) {
                      onExpand();
                      setProfileOpen(true);
                    } else setProfileOpen((o) => !o);
                  }}
                  className={`${itemClass} hover:bg-brand-700`}
                >
                  <ShellIcon d={ICONS[entry.id]} />
                  <span className={collapsed ? 'sr-only' : ''}>{label}</span>
                </button>
                {profileOpen && !collapsed && <ProfilePanel id={profileId} profile={profile} actions={profileActions} />}
              </li>
            );
          }
          const href = entry.href;
          const active = currentPath === href || (href !== '/dashboard' && currentPath.startsWith(`${href}/`));
          return (
            <li key={entry.id}>
              <a
                href={href}
                aria-current={active ? 'page' : undefined}
                title={collapsed ? label : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  onNavigate(href);
                }}
                className={`${itemClass} ${active ? 'bg-white text-brand-800' : 'hover:bg-brand-700'}`}
              >
                <ShellIcon d={ICONS[entry.id]} />
                <span className={collapsed ? 'sr-only' : ''}>{label}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The email of the signed-in person, at the bottom of the navigation (spec §2). */
export function SignedInAs({ email, collapsed }: { email: string; collapsed: boolean }) {
  return (
    <div className={`border-t border-brand-700 px-3 py-3 text-xs ${collapsed ? 'sr-only' : ''}`}>
      <span className="block text-brand-100">{fr.shell.signedInAs}</span>
      <span data-testid="sidebar-email" className="block break-all font-medium">
        {email}
      </span>
    </div>
  );
}
