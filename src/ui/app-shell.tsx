import type { ReactNode } from 'react';
import { frShell as fr } from '../i18n/fr-shell';
import { Sidebar, type SidebarProps } from './sidebar';

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

/** The shell of spec §2: collapsible sidebar, header greeting, footer links. */
export function AppShell({ greetingName, memberAreaUrl, footerLinks, notice, children, ...sidebar }: AppShellProps) {
  return (
    <div className="flex min-h-screen bg-slate-50 text-slate-900">
      <a href="#contenu" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        {fr.shell.skipToContent}
      </a>
      <Sidebar {...sidebar} />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 bg-white px-6 py-4">
          <p className="text-lg font-semibold text-slate-800">{fr.shell.greeting(greetingName)}</p>
          <a href={memberAreaUrl} target="_blank" rel="noopener noreferrer" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
            {fr.shell.memberArea}
            <span className="sr-only"> (nouvelle fenêtre)</span>
          </a>
        </header>
        {notice && (
          <div role="alert" className="border-b border-amber-300 bg-amber-50 px-6 py-3 text-sm text-amber-900">
            {notice}
          </div>
        )}
        <main id="contenu" tabIndex={-1} className="flex-1 px-6 py-6">
          {children}
        </main>
        <footer className="border-t border-slate-200 bg-white px-6 py-4 text-sm text-slate-600">
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
