import { useState } from 'react';
import * as Tooltip from '@radix-ui/react-tooltip';
import { frLists as fr } from '../../i18n/fr-lists';
import { RoleBadge } from '../role-badge';
import type { RoleTone } from '../../../rules/roles';

export interface RoleChip {
  code: string;
  label: string;
  tone: RoleTone;
}

/**
 * The first role as a badge, then '+n' listing the others (spec §2: a hover list) on hover, on keyboard focus, and
 * on a tap or a click: a touch screen has no hover, and a Radix tooltip alone closes on press. A tap elsewhere or
 * Escape closes it. The button's name carries the list too, for screen readers.
 */
export function RolesCell({ roles }: { roles: RoleChip[] }) {
  const [open, setOpen] = useState(false);
  const [first, ...rest] = roles;
  if (!first) return <span className="text-slate-500">—</span>;
  return (
    <div className="flex items-center gap-1">
      <RoleBadge label={first.label} tone={first.tone} />
      {rest.length > 0 && (
        <Tooltip.Root delayDuration={150} open={open} onOpenChange={setOpen}>
          <Tooltip.Trigger asChild>
            <button
              type="button"
              onClick={(event) => {
                // Keeps Radix from closing the list on press: the press is what opens it on a touch screen.
                event.preventDefault();
                setOpen(true);
              }}
              aria-label={`${fr.usersList.otherRoles(rest.length)} : ${rest.map((r) => r.label).join(', ')}`}
              className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800 hover:bg-slate-300"
            >
              {fr.usersList.moreRoles(rest.length)}
            </button>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content sideOffset={6} className="z-50 flex max-w-xs flex-wrap gap-1 rounded-lg bg-white p-2 shadow-lg ring-1 ring-slate-200">
              {rest.map((role) => (
                <RoleBadge key={role.code} label={role.label} tone={role.tone} />
              ))}
              <Tooltip.Arrow className="fill-white" />
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      )}
    </div>
  );
}
