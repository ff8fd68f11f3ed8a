// What the profile and the edit page both say of a user, apart from the profile itself: a screen that shows
// only these does not download the whole profile.
import type { ReactNode } from 'react';
import { fr } from '../../i18n/fr';

const t = fr.userProfile;

/** A new address waiting for its owner's confirmation (issue 19): said on the profile and the edit page. */
export function PendingEmail({ email }: { email: string }) {
  return <p className="mt-1 text-sm break-all text-amber-900">{t.pendingEmail(email)}</p>;
}

/** 'Utilisateur introuvable' / 'Aucune donnée.' (spec §2), for the profile and the edit page alike. */
export function UserNotFound({ detail, children }: { detail?: string | null; children?: ReactNode }) {
  return (
    <div className="space-y-3">
      <h1 className="text-2xl font-bold text-slate-900">{t.notFoundTitle}</h1>
      <p className="text-slate-700">{t.notFoundText}</p>
      {detail && <p className="text-sm text-slate-600">{detail}</p>}
      {children}
    </div>
  );
}
