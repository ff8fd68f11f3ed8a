import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type RefObject } from 'react';
import { frShell as fr } from '../i18n/fr-shell';
import { NavList, onDark, ShellIcon, SignedInAs } from './nav-list';
import type { SidebarProps } from './sidebar';

export interface MobileDrawerProps extends SidebarProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the focus goes once a link of the drawer is followed: the new page, not the menu button. */
  contentId: string;
  /** The 'Menu' button, given the focus back on any other close (it is not a Dialog.Trigger: it is there before this file loads). */
  menuButton: RefObject<HTMLButtonElement | null>;
}

/**
 * The navigation of a narrow screen as a drawer (Radix Dialog: focus kept inside, Escape and a click outside
 * close it, the focus given back to the 'Menu' button).
 */
export default function MobileDrawer({ open, onOpenChange, contentId, menuButton, onNavigate, email, ...nav }: MobileDrawerProps) {
  const followed = useRef(false);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/60" />
        <Dialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            // The Menu button is hidden when the drawer closes because the window widened: then the content.
            const button = menuButton.current;
            const hidden = !button || (typeof button.checkVisibility === 'function' && !button.checkVisibility());
            if (followed.current || hidden) document.getElementById(contentId)?.focus();
            else button.focus();
            followed.current = false;
          }}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col overflow-y-auto bg-brand-800 text-white shadow-xl"
        >
          <div className="flex items-center justify-between gap-2 px-3 py-3">
            <Dialog.Title className="text-lg font-bold">{fr.app.name}</Dialog.Title>
            <Dialog.Close aria-label={fr.shell.nav.closeMenu} className={`rounded-md p-2 hover:bg-brand-700 ${onDark}`}>
              <ShellIcon d="M6 6l12 12M18 6 6 18" />
            </Dialog.Close>
          </div>
          <NavList
            {...nav}
            collapsed={false}
            onExpand={() => undefined}
            onNavigate={(href) => {
              followed.current = true;
              onOpenChange(false);
              onNavigate(href);
            }}
          />
          <SignedInAs email={email} collapsed={false} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
