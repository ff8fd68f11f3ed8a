import type { ReactElement } from 'react';
import * as Tooltip from '@radix-ui/react-tooltip';

/**
 * Why something is disabled, as a tooltip on hover and keyboard focus. A disabled control receives no
 * pointer or focus events, so the tooltip hangs on a focusable wrapper; the control itself should also
 * point at the reason with aria-describedby (see ReasonText).
 */
export function WithReason({ reason, children }: { reason: string | null; children: ReactElement }) {
  if (!reason) return children;
  return (
    <Tooltip.Root delayDuration={150}>
      <Tooltip.Trigger asChild>
        <span tabIndex={0} className="inline-flex rounded-lg">
          {children}
        </span>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content sideOffset={6} className="z-50 max-w-xs rounded-lg bg-slate-900 px-3 py-2 text-sm text-white shadow-lg">
          {reason}
          <Tooltip.Arrow className="fill-slate-900" />
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}

/** The reason as text for assistive technologies, referenced by aria-describedby. */
export function ReasonText({ id, reason }: { id: string; reason: string | null }) {
  return reason ? (
    <span id={id} className="sr-only">
      {reason}
    </span>
  ) : null;
}
