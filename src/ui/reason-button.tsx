import { useId, useState, type ReactNode } from 'react';
import * as Tooltip from '@radix-ui/react-tooltip';

export interface ReasonButtonProps {
  /** Why the action is unavailable; null when it is available. */
  reason: string | null;
  /** Natively disabled (e.g. while saving): then nothing needs explaining. */
  disabled?: boolean;
  onClick: () => void;
  className: string;
  'aria-label'?: string;
  'aria-busy'?: boolean;
  children: ReactNode;
}

/**
 * A button that says why it cannot be used. While unavailable it is aria-disabled rather than disabled, so
 * it stays in the Tab order: keyboard and screen-reader users reach it and hear the reason (aria-describedby),
 * sighted users see it as a Radix tooltip on hover and focus; pressing it does nothing. Style the unavailable
 * look with `aria-disabled:` variants.
 */
export function ReasonButton({ reason, disabled = false, onClick, className, children, ...aria }: ReasonButtonProps) {
  const id = useId();
  const unavailable = reason !== null && !disabled;
  // Always controlled (a tooltip switching between controlled and not is a React warning): shown only with a reason.
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* Its own provider, so that the button works wherever it is placed. */}
      <Tooltip.Provider>
        <Tooltip.Root delayDuration={150} open={unavailable && open} onOpenChange={setOpen}>
          <Tooltip.Trigger asChild>
            <button
              type="button"
              {...aria}
              disabled={disabled}
              aria-disabled={unavailable || undefined}
              aria-describedby={unavailable ? `${id}-reason` : undefined}
              onClick={unavailable ? undefined : onClick}
              className={className}
            >
              {children}
            </button>
          </Tooltip.Trigger>
          {unavailable && <ReasonTooltip reason={reason} />}
        </Tooltip.Root>
      </Tooltip.Provider>
      {unavailable && (
        <span id={`${id}-reason`} className="sr-only">
          {reason}
        </span>
      )}
    </>
  );
}

/** The reason as a tooltip (inside a Tooltip.Root whose trigger is the unavailable control). */
export function ReasonTooltip({ reason }: { reason: string }) {
  return (
    <Tooltip.Portal>
      <Tooltip.Content sideOffset={6} className="z-50 max-w-xs rounded-lg bg-slate-900 px-3 py-2 text-sm text-white shadow-lg">
        {reason}
        <Tooltip.Arrow className="fill-slate-900" />
      </Tooltip.Content>
    </Tooltip.Portal>
  );
}
