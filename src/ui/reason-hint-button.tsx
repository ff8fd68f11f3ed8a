import { useId, useState, type ReactNode } from 'react';
import type { ReasonButtonProps } from './reason-button';

/**
 * ReasonButton's behaviour without its tooltip library, for the lists (users, requests), whose screens would
 * otherwise download Radix's tooltip for a read-only person's reasons. While unavailable it is aria-disabled,
 * not disabled: it stays in the Tab order, its reason is its description (aria-describedby), and the reason
 * shows under it on hover and on keyboard focus, stays while the pointer moves onto it, and Escape hides it
 * (WCAG 1.4.13). Pressing it does nothing.
 */
export function ReasonHintButton({ reason, disabled = false, onClick, className, children, ...aria }: ReasonButtonProps): ReactNode {
  const id = useId();
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
  return (
    <span
      className="relative inline-flex"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => {
        setHovered(false);
        setDismissed(false);
      }}
    >
      <button
        type="button"
        {...aria}
        aria-disabled="true"
        aria-describedby={`${id}-reason`}
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
      <span
        id={`${id}-reason`}
        role={shown ? 'tooltip' : undefined}
        className={
          shown
            ? 'absolute top-full right-0 z-50 mt-1.5 w-max max-w-xs rounded-lg bg-slate-900 px-3 py-2 text-left text-sm font-normal whitespace-normal text-white shadow-lg'
            : 'sr-only'
        }
      >
        {reason}
      </span>
    </span>
  );
}
