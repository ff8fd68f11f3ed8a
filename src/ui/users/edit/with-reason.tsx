import type { ReactElement } from 'react';
import * as Tooltip from '@radix-ui/react-tooltip';
import { ReasonTooltip } from '../../reason-button';

/** Why a tab cannot be opened, as a tooltip on the tab itself (its trigger renders a Tooltip.Trigger as its child). */
export function TabReason({ reason, trigger }: { reason: string; trigger: ReactElement }) {
  return (
    <Tooltip.Root delayDuration={150}>
      {trigger}
      <ReasonTooltip reason={reason} />
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
