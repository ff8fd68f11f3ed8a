import { fr } from '../../i18n/fr';
import { RoleBadge } from '../role-badge';
import type { RoleChip } from '../users/roles-cell';

const t = fr.adminActions.assign;

/** Spec §9: at most 3 role badges per user on the assign-existing screen. */
export const MAX_ROLE_BADGES = 3;

export interface CandidateRow {
  id: string;
  name: string;
  email: string;
  roles: RoleChip[];
  /** Why the user cannot be picked (greyed out), or null. */
  ineligibleReason: string | null;
}

/** Up to 3 badges, then '+N autres'. */
export function CandidateRoles({ roles }: { roles: RoleChip[] }) {
  if (roles.length === 0) return null;
  const shown = roles.slice(0, MAX_ROLE_BADGES);
  const more = roles.length - shown.length;
  return (
    <ul aria-label={t.rolesLabel} className="flex flex-wrap items-center gap-1">
      {shown.map((role) => (
        <li key={role.code}>
          <RoleBadge label={role.label} tone={role.tone} />
        </li>
      ))}
      {more > 0 && <li className="text-xs font-semibold text-slate-700">{t.moreRoles(more)}</li>}
    </ul>
  );
}

function Identity({ row }: { row: CandidateRow }) {
  return (
    <span className="min-w-0">
      <span className="block font-semibold text-slate-900">{row.name}</span>
      <span className="block break-all text-sm text-slate-600">{row.email}</span>
    </span>
  );
}

/** The users one may pick; the others are shown greyed out with the reason. Clicking a user selects them. */
export function CandidateList({ rows, onSelect }: { rows: CandidateRow[]; onSelect: (id: string) => void }) {
  return (
    <ul aria-label={t.listLabel} className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm">
      {rows.map((row) => (
        <li key={row.id}>
          <button
            type="button"
            disabled={row.ineligibleReason !== null}
            onClick={() => onSelect(row.id)}
            className="flex w-full flex-wrap items-center justify-between gap-3 px-5 py-3 text-left hover:bg-brand-50 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:opacity-60 disabled:hover:bg-slate-50"
          >
            <Identity row={row} />
            <span className="flex flex-col items-end gap-1">
              <CandidateRoles roles={row.roles} />
              {row.ineligibleReason && <span className="text-sm italic text-slate-700">{row.ineligibleReason}</span>}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The chosen user, with 'Changer' to pick another one. */
export function SelectedCandidate({ row, disabled, onChange }: { row: CandidateRow; disabled: boolean; onChange: () => void }) {
  return (
    <section aria-label={t.selected} className="flex flex-wrap items-center justify-between gap-3 rounded-xl border-2 border-brand-600 bg-brand-50 px-5 py-4">
      <div className="space-y-1">
        <p className="text-xs font-semibold uppercase tracking-wide text-brand-800">{t.selected}</p>
        <Identity row={row} />
        <CandidateRoles roles={row.roles} />
      </div>
      <button type="button" onClick={onChange} disabled={disabled} aria-label={t.changeLabel} className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900 disabled:opacity-50">
        {t.change}
      </button>
    </section>
  );
}

/** 'Page X sur Y' with Précédent and Suivant. */
export function SimplePager({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (page: number) => void }) {
  const button = 'rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50 disabled:opacity-40';
  return (
    <nav aria-label={fr.pagination.label} className="flex items-center justify-center gap-3">
      <button type="button" className={button} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t.previous}
      </button>
      <span className="text-sm text-slate-700">{t.pager(page, totalPages)}</span>
      <button type="button" className={button} disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        {t.next}
      </button>
    </nav>
  );
}
