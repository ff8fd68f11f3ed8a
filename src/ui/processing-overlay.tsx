import { useEffect, useRef } from 'react';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { focusTrail, restoreFocus } from './focus-return';

/**
 * The full-screen overlay shown while a decision or a creation is processed: a Radix AlertDialog with
 * nothing to press, so that the keyboard focus cannot wander behind it (the rest of the page is hidden
 * from assistive technologies meanwhile); open with no way to change it, Escape does not close it. Its
 * label is announced as the focus moves in. On close the focus returns to what had it before, or near it
 * (see focus-return.ts).
 */
export function ProcessingOverlay({ label }: { label: string }) {
  const content = useRef<HTMLDivElement>(null);
  const before = useRef<Element[]>([]);
  // A confirmation closing as the overlay opens hands the focus back to its trigger a moment later; the
  // overlay keeps the focus, and remembers that trigger as the place to return to.
  // (Radix pulls the focus back as it leaves: the attempt shows as a focusout towards that trigger.)
  useEffect(() => {
    const remember = ({ relatedTarget: towards }: FocusEvent) => {
      if (towards instanceof Element && !content.current?.contains(towards)) before.current = focusTrail(towards);
    };
    document.addEventListener('focusout', remember, true);
    return () => document.removeEventListener('focusout', remember, true);
  }, []);
  return (
    <AlertDialog.Root open>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <AlertDialog.Content
          ref={content}
          aria-describedby={undefined}
          onOpenAutoFocus={(event) => {
            if (document.activeElement && document.activeElement !== document.body) before.current = focusTrail(document.activeElement);
            // An AlertDialog focuses its 'Cancel' button; this one has none, so the focus goes to the overlay itself.
            event.preventDefault();
            content.current?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            restoreFocus(before.current);
          }}
          className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 text-white outline-none"
        >
          <span aria-hidden="true" className="h-12 w-12 animate-spin rounded-full border-4 border-white/30 border-t-white" />
          <AlertDialog.Title className="text-lg font-semibold">{label}</AlertDialog.Title>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
