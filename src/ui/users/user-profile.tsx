import type { ReactNode } from 'react';
import { roleDisplayLabel, roleTone } from '../../../rules/roles';
import type { HeldRole, ProfileSiren } from '../../domain/user-profile';
import { fr } from '../../i18n/fr';
import { formatDate } from '../../domain/dates';
import { RoleBadge } from '../role-badge';
import { PendingEmail } from './user-notices';

export { PendingEmail, UserNotFound } from './user-notices';

const t = fr.userProfile;

export interface UserProfileData {
  firstName: string;
  lastName: string;
  email: string;
  /** A new address waiting for its owner's confirmation; the e-mail stays the one above until then. */
  pendingEmail: string | null;
  isActive: boolean;
  jobTitle: string | null;
  phoneNumber: string | null;
  mobilePhone: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  lastLoginAt: string | null;
  /** While never signed in: when the latest set-up link was sent (issue 22). */
  invitationSentAt: string | null;
}

const DETAIL_ROWS = ['jobTitle', 'phoneNumber', 'mobilePhone', 'street', 'postalCode', 'city'] as const;

function Roles({ roles }: { roles: HeldRole[] }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label={fr.usersList.columns.roles}>
      {roles.map((role) => (
        <li key={role.code}>
          <RoleBadge label={roleDisplayLabel(role.name)} tone={roleTone(role.code)} />
        </li>
      ))}
    </ul>
  );
}

function SirenCard({ siren }: { siren: ProfileSiren }) {
  const name = siren.name || t.sirenFallback(siren.code);
  return (
    <li className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-5 py-3">
        <h3 className="font-semibold text-slate-900">{name}</h3>
        <span className="font-mono text-sm text-slate-600">SIREN {siren.code}</span>
      </div>
      {siren.roles.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 bg-slate-50 px-5 py-2 text-sm text-slate-700">
          <span>{t.sirenRoles}</span>
          <Roles roles={siren.roles} />
        </div>
      )}
      {siren.sirets.length === 0 ? (
        siren.roles.length === 0 && <p className="px-5 py-3 text-sm text-slate-600">{t.noSiret}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {siren.sirets.map((siret) => (
            <li key={siret.code} className="flex flex-wrap items-center justify-between gap-2 px-5 py-3">
              <div>
                <p className="text-slate-900">{siret.name || t.siretFallback}</p>
                <p className="font-mono text-sm text-slate-600">SIRET {siret.code}</p>
              </div>
              <Roles roles={siret.roles} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}


/** Spec §2 /utilisateurs/{id}: read-only; name, email, personal details, then per SIREN its SIRETs with role badges. */
export function UserProfile({ user, sirens, actions }: { user: UserProfileData; sirens: ProfileSiren[]; actions?: ReactNode }) {
  const name = `${user.firstName} ${user.lastName}`.trim();
  return (
    <div className="max-w-4xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t.heading}</h1>
          <p className="mt-2 text-xl font-semibold text-slate-900">{name}</p>
          <p className="text-slate-700">{user.email}</p>
          {user.pendingEmail && <PendingEmail email={user.pendingEmail} />}
          {!user.lastLoginAt && user.invitationSentAt && <p className="mt-1 text-sm text-slate-700">{fr.usersList.invitationSent(formatDate(user.invitationSentAt) ?? '')}</p>}
          {!user.isActive && <p className="mt-2 inline-block rounded-full bg-amber-100 px-3 py-0.5 text-sm font-medium text-amber-900">{t.inactive}</p>}
        </div>
        {actions}
      </div>
      <section aria-labelledby="profile-details" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="profile-details" className="mb-4 text-lg font-semibold text-slate-900">
          {t.personalDetails}
        </h2>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
          {DETAIL_ROWS.map((field) => (
            <div key={field}>
              <dt className="text-sm font-medium text-slate-600">{t.fields[field]}</dt>
              <dd className="mt-1 break-words text-slate-900">{user[field] || t.empty}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="profile-organizations" className="space-y-3">
        <h2 id="profile-organizations" className="text-lg font-semibold text-slate-900">
          {t.organizations}
        </h2>
        {sirens.length === 0 ? (
          <p className="text-slate-600">{t.noOrganization}</p>
        ) : (
          <ul className="space-y-4">
            {sirens.map((siren) => (
              <SirenCard key={siren.code} siren={siren} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
