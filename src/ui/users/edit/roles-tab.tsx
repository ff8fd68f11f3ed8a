import { canToggleRole, MAX_ROLES, type OfferedRole } from '../../../domain/user-edit';
import { roleDisplayLabel, roleTone } from '../../../../rules/roles';
import { fr } from '../../../i18n/fr';
import { RoleBadge } from '../../role-badge';

const t = fr.userEdit.roles;

/** Spec §5: 1 to 5 roles, among those offered to the person editing (no INTERNAL role for organization users). */
export function RolesTab({ roles, chosen, disabled, onToggle }: { roles: OfferedRole[]; chosen: number[]; disabled: boolean; onToggle: (roleId: number) => void }) {
  const full = chosen.length >= MAX_ROLES;
  return (
    <fieldset className="space-y-3">
      <legend className="font-semibold text-slate-900">{t.title}</legend>
      <p className="text-sm text-slate-700" aria-live="polite">
        {full ? <span className="font-medium text-amber-800">{t.limit}</span> : t.count(chosen.length)}
      </p>
      <ul className="grid gap-2 sm:grid-cols-2">
        {roles.map((role) => {
          const checked = chosen.includes(role.id);
          const blocked = disabled || !canToggleRole(chosen, role.id);
          return (
            <li key={role.id}>
              <label className={`flex items-center gap-3 rounded-lg border px-3 py-2 ${checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white'} ${blocked ? 'cursor-not-allowed opacity-60' : 'cursor-pointer hover:bg-slate-50'}`}>
                <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={checked} disabled={blocked} onChange={() => onToggle(role.id)} />
                <RoleBadge label={roleDisplayLabel(role.name)} tone={roleTone(role.code)} />
                {role.type === 'INTERNAL' && <span className="ml-auto text-xs text-slate-600">{t.internal}</span>}
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
