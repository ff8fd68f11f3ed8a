import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { frShell as fr } from '../i18n/fr-shell';
import { onDark, ShellIcon } from './nav-list';
import type { SidebarProps } from './sidebar';

// Loaded at the first press of 'Menu': the dialog primitive would add 14 kB (gzip) to the first screen.
const MobileDrawer = lazy(() => import('./mobile-drawer'));

export interface MobileNavProps extends SidebarProps {
  /** Where the focus goes once a link of the drawer is followed: the new page, not the menu button. */
  contentId: string;
}

const WIDE = '(min-width: 768px)';

/**
 * Below 768 px (a phone, or 200 % zoom on a laptop): a bar with a 'Menu' button opening the navigation as a
 * drawer. A rail of icons would leave a 320 px screen 256 px for the tables; the drawer leaves the content the
 * whole width, and names its entries in words.
 */
export function MobileNav(props: MobileNavProps) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  // A drawer left open while the window widens would sit hidden and still hold the focus.
  useEffect(() => {
    const query = window.matchMedia?.(WIDE);
    if (!query) return;
    const close = () => query.matches && setOpen(false);
    query.addEventListener('change', close);
    return () => query.removeEventListener('change', close);
  }, []);

  return (
    <div className="flex items-center justify-between gap-2 bg-brand-800 px-4 py-2 text-white md:hidden">
      <span className="font-bold">{fr.app.name}</span>
      <button
        ref={menuButton}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        className={`inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold hover:bg-brand-700 ${onDark}`}
      >
        <ShellIcon d="M4 6h16M4 12h16M4 18h16" />
        {fr.shell.nav.menu}
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <MobileDrawer {...props} open={open} onOpenChange={setOpen} menuButton={menuButton} />
        </Suspense>
      )}
    </div>
  );
}
