import type { ReactNode } from 'react';
import { fr } from '../../i18n/fr';

const t = fr.adminActions.chooser;

interface ChoiceCardProps {
  id: string;
  title: string;
  text: string;
  points: readonly string[];
  action: string;
  onChoose: () => void;
}

function ChoiceCard({ id, title, text, points, action, onChoose }: ChoiceCardProps) {
  return (
    <section aria-labelledby={id} className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={id} className="mb-2 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mb-4 text-slate-700">{text}</p>
      <ul className="mb-6 flex-1 space-y-2">
        {points.map((point) => (
          <li key={point} className="flex gap-2 text-slate-800">
            <span aria-hidden="true" className="font-bold text-brand-600">
              ✓
            </span>
            <span>{point}</span>
          </li>
        ))}
      </ul>
      <button type="button" onClick={onChoose} className="self-start rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
        {action}
      </button>
    </section>
  );
}

export interface AdminActionsChooserProps {
  onCreateAccount: () => void;
  onAssignExisting: () => void;
  /** The link to 'Mes demandes' (issue 22): the requests already made. */
  myRequests: ReactNode;
  /** The customer-relations help box. */
  help: ReactNode;
}

/** Spec §2 /admin-actions: the two ways to get a member administrator, and where to find help. */
export function AdminActionsChooser({ onCreateAccount, onAssignExisting, myRequests, help }: AdminActionsChooserProps) {
  return (
    <div className="max-w-5xl space-y-6">
      <h1 className="text-2xl font-bold text-slate-900">{t.heading}</h1>
      <p className="text-slate-700">{t.intro}</p>
      <div className="grid gap-6 md:grid-cols-2">
        <ChoiceCard id="admin-choice-create" {...t.create} onChoose={onCreateAccount} />
        <ChoiceCard id="admin-choice-assign" {...t.assign} onChoose={onAssignExisting} />
      </div>
      <p className="flex flex-wrap items-center gap-x-2 rounded-xl border border-slate-200 bg-white p-4 text-slate-700">
        <span>{fr.myRequests.linkText}</span>
        {myRequests}
      </p>
      {help}
    </div>
  );
}
