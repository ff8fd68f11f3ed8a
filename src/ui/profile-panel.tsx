import type { ReactNode } from 'react';
import { frShell as fr } from '../i18n/fr-shell';

export interface ProfileSummary {
  email: string;
  userType: 'BACKOFFICE' | 'ORGANIZATION';
  permissions: string[];
  organizations: { key: string; name: string; code: string; role: string }[];
}

/** 'Mon profil': who is signed in, with which rights. */
export function ProfilePanel({ id, profile, actions }: { id: string; profile: ProfileSummary; actions?: ReactNode }) {
  return (
    <div id={id} className="mx-1 mt-1 rounded-lg bg-brand-900 p-3 text-xs">
      <dl className="space-y-2">
        <div>
          <dt className="text-brand-100">{fr.shell.profile.email}</dt>
          <dd className="break-all">{profile.email}</dd>
        </div>
        <div>
          <dt className="text-brand-100">{fr.shell.profile.type}</dt>
          <dd>{profile.userType === 'BACKOFFICE' ? fr.shell.profile.backOffice : fr.shell.profile.organization}</dd>
        </div>
        <div>
          <dt className="text-brand-100">{fr.shell.profile.permissions}</dt>
          <dd>{profile.permissions.length ? profile.permissions.join(', ') : fr.shell.profile.none}</dd>
        </div>
        {profile.organizations.length > 0 && (
          <div>
            <dt className="text-brand-100">{fr.shell.profile.organizations}</dt>
            <dd>
              <ul className="space-y-1">
                {profile.organizations.map((o) => (
                  <li key={o.key}>
                    {o.name} ({o.code}) : {o.role}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
      </dl>
      {actions}
    </div>
  );
}
