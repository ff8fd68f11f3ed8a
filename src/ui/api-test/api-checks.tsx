import { fr } from '../../i18n/fr';

const t = fr.apiTest;

export interface ApiCheckView {
  id: string;
  request: string;
  outcome: 'success' | 'error' | 'skipped';
  /** What answered, the error's message, or why the check was skipped. */
  detail: string;
}

const TONE: Record<ApiCheckView['outcome'], string> = {
  success: 'bg-green-100 text-green-900',
  error: 'bg-red-100 text-red-900',
  skipped: 'bg-slate-200 text-slate-800',
};

/** Each check: its request, its outcome and the detail (spec §2: success, error with message, or skipped with a reason). */
export function ApiChecks({ checks }: { checks: ApiCheckView[] | null }) {
  if (!checks) return <p className="text-slate-600">{t.notRun}</p>;
  return (
    <ul aria-label={t.checks} className="divide-y divide-slate-100">
      {checks.map((check) => (
        <li key={check.id} aria-label={check.request} className="flex flex-wrap items-center gap-3 py-3">
          <code className="font-mono text-sm text-slate-900">{check.request}</code>
          <span className={`rounded-full px-3 py-0.5 text-sm font-medium ${TONE[check.outcome]}`}>{t.outcome[check.outcome]}</span>
          <span className="text-slate-700">{check.detail}</span>
        </li>
      ))}
    </ul>
  );
}
