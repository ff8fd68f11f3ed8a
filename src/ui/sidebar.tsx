import { useState, type ReactNode } from 'react';
import type { NavEntry } from '../domain/navigation';
import { frShell as fr } from '../i18n/fr-shell';
import { NavList, onDark, ShellIcon, SignedInAs } from './nav-list';
import type { ProfileSummary } from './profile-panel';

export interface SidebarProps {
  entries: NavEntry[];
  currentPath: string;
  email: string;
  profile: ProfileSummary;
  /** Drawn at the end of the 'Mon profil' panel (issue 23: one's own data on request). */
  profileActions?: ReactNode;
  onNavigate: (href: string) => void;
}

/**
 * The collapsible sidebar of 768 px and wider (below, the phone menu of MobileNav takes its place).
 * Folded into a rail at first below 1024 px, where the tables need the room. It stays in view while a long
 * page scrolls, its own content scrolling when the window is short (200 % zoom).
 */
export function Sidebar({ entries, currentPath, email, profile, profileActions, onNavigate }: SidebarProps) {
  const [collapsed, setCollapsed] = useState(() => typeof window !== 'undefined' && window.matchMedia?.('(max-width: 1023px)').matches === true);
  return (
    <aside className={`sticky top-0 hidden h-screen shrink-0 flex-col overflow-y-auto bg-brand-800 text-white transition-[width] md:flex ${collapsed ? 'w-16' : 'w-72'}`}>
      <div className="flex items-center justify-between gap-2 px-3 py-4">
        {!collapsed && <span className="text-lg font-bold">{fr.app.name}</span>}
        <button
          type="button"
          onClick={() => setCollapsed((c) => !c)}
          aria-expanded={!collapsed}
          aria-label={collapsed ? fr.shell.nav.expand : fr.shell.nav.collapse}
          className={`rounded-md p-2 hover:bg-brand-700 ${onDark}`}
        >
          <ShellIcon d={collapsed ? 'm9 6 6 6-6 6' : 'm15 6-6 6 6 6'} />
        </button>
      </div>
      <NavList entries={entries} currentPath={currentPath} profile={profile} profileActions={profileActions} collapsed={collapsed} onNavigate={onNavigate} onExpand={() => setCollapsed(false)} />
      <SignedInAs email={email} collapsed={collapsed} />
    </aside>
  );
}
