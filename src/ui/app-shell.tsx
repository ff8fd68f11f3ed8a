import type { ReactNode } from 'react';
import { frShell as fr } from '../i18n/fr-shell';
import { MobileNav } from './mobile-nav';
import { Sidebar, type SidebarProps } from './sidebar';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

export interface FooterLink {
  label: string;
  href: string;
}

export interface AppShellProps extends SidebarProps {
  greetingName: string;
  memberAreaUrl: string;
  footerLinks: FooterLink[];
  notice: string | null;
  children: ReactNode;
}

/** The shell of spec §2: collapsible sidebar (a 'Menu' drawer below 768 px), header greeting, footer links. */
export function AppShell({ greetingName, memberAreaUrl, footerLinks, notice, children, ...sidebar }: AppShellProps) {
  return (
    <div className="flex min-h-screen bg-slate-50 text-slate-900">
      <SkipLink />
      <Sidebar {...sidebar} />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="border-b border-slate-200 bg-white">
          <MobileNav {...sidebar} contentId={MAIN_CONTENT_ID} />
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-4 py-3 sm:px-6 sm:py-4">
            <p className="font-semibold text-slate-800 sm:text-lg">{fr.shell.greeting(greetingName)}</p>
            <a href={memberAreaUrl} target="_blank" rel="noopener noreferrer" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
              {fr.shell.memberArea}
              <span className="sr-only"> (nouvelle fenêtre)</span>
            </a>
          </div>
        </header>
        {notice && (
          <div role="alert" className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 sm:px-6">
            {notice}
          </div>
        )}
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 px-4 py-5 sm:px-6 sm:py-6">
          {children}
        </main>
        <footer className="border-t border-slate-200 bg-white px-4 py-4 text-sm text-slate-600 sm:px-6">
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            {footerLinks.map((link) => (
              <li key={link.href}>
                <a href={link.href} className="hover:text-brand-700 hover:underline">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </footer>
      </div>
    </div>
  );
}
