import { useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { ReasonButtonProps } from './reason-button';

/**
 * ReasonButton's behaviour without its tooltip library, for the lists (users, requests), whose screens would
 * otherwise download Radix's tooltip for a read-only person's reasons. While unavailable it is aria-disabled,
 * not disabled: it stays in the Tab order, its reason is its description (aria-describedby), and the reason
 * shows under it on hover and on keyboard focus (drawn over the page, so that no table cell hides it), stays
 * while the pointer moves onto it, and Escape hides it (WCAG 1.4.13). Pressing it does nothing.
 */
export function ReasonHintButton({ reason, disabled = false, onClick, className, children, ...aria }: ReasonButtonProps): ReactNode {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const unavailable = reason !== null && !disabled;
  if (!unavailable) {
    return (
      <button type="button" {...aria} disabled={disabled} onClick={onClick} className={className}>
        {children}
      </button>
    );
  }
  const shown = (hovered || focused) && !dismissed;
  const anchor = shown ? button.current?.getBoundingClientRect() : undefined;
  const leave = () => {
    setHovered(false);
    setDismissed(false);
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        {...aria}
        aria-disabled="true"
        aria-describedby={`${id}-reason`}
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={leave}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          setDismissed(false);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && shown) {
            event.stopPropagation();
            setDismissed(true);
          }
        }}
        className={className}
      >
        {children}
      </button>
      <span id={`${id}-reason`} className="sr-only">
        {reason}
      </span>
      {anchor &&
        createPortal(
          // Right-aligned under the button, narrow enough on a phone to stay on the screen.
          <span
            role="tooltip"
            onMouseEnter={() => setHovered(true)}
            onMouseLeave={leave}
            style={{ position: 'fixed', top: anchor.bottom + 6, right: Math.max(8, window.innerWidth - anchor.right) }}
            className="z-50 w-max max-w-[min(20rem,calc(100vw-1rem))] rounded-lg bg-slate-900 px-3 py-2 text-left text-sm font-normal whitespace-normal text-white shadow-lg"
          >
            {reason}
          </span>,
          document.body,
        )}
    </>
  );
}
