// The columns of the users export (openapi.yaml, exportUsers). Pure.
import { roleDisplayLabel } from '../../../rules/roles.ts';
import { frenchDateTime, type CsvColumn } from '../exports/csv.model.ts';
import type { ExportedAssignment, ExportedUserRow } from './users-export.repository.ts';

/** A user as exported: the assignments are those the caller may see (users.policy.ts visibleAssignments). */
export interface ExportedUser {
  user: ExportedUserRow;
  assignments: readonly ExportedAssignment[];
}

/** 'Comptable — Clinique des Tilleuls (78744179900012)': the role's display label, the organization's name and code. */
export const assignmentLabel = (a: Pick<ExportedAssignment, 'roleName' | 'organizationName' | 'organizationCode'>): string =>
  `${roleDisplayLabel(a.roleName)} — ${a.organizationName} (${a.organizationCode})`;

export const USER_EXPORT_COLUMNS: readonly CsvColumn<ExportedUser>[] = [
  { header: 'Nom', value: ({ user }) => user.last_name },
  { header: 'Prénom', value: ({ user }) => user.first_name },
  { header: 'Email', value: ({ user }) => user.email },
  { header: 'Statut', value: ({ user }) => (user.is_active ? 'Actif' : 'Inactif') },
  { header: 'Rôles', value: ({ assignments }) => assignments.map(assignmentLabel).join(' | ') },
  { header: 'Dernière connexion', value: ({ user }) => frenchDateTime(user.last_login_at) },
  { header: 'Fonction', value: ({ user }) => user.job_title },
  { header: 'Téléphone', value: ({ user }) => user.phone_number },
];
