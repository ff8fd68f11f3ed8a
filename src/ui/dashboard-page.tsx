import type { ReactNode } from 'react';
import { frShell as fr } from '../i18n/fr-shell';

export function DashboardPage({ memberAreaUrl, work = null, shortcuts = null }: { memberAreaUrl: string; work?: ReactNode; shortcuts?: ReactNode }) {
  return (
    <div className="max-w-4xl space-y-6">
      <h1 className="text-2xl font-bold text-slate-900">{fr.dashboard.title}</h1>
      <p className="text-slate-700">{fr.dashboard.intro}</p>
      {work}
      <section className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 className="mb-2 text-lg font-semibold text-brand-800">{fr.shell.memberArea}</h2>
        <p className="mb-4 text-slate-700">{fr.dashboard.memberAreaText}</p>
        <a
          href={memberAreaUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-block rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {fr.shell.memberArea}
          <span className="sr-only"> (nouvelle fenêtre)</span>
        </a>
      </section>
      {shortcuts && (
        <section aria-labelledby="dashboard-shortcuts" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="dashboard-shortcuts" className="mb-2 text-lg font-semibold text-brand-800">
            {fr.dashboard.shortcuts}
          </h2>
          {shortcuts}
        </section>
      )}
    </div>
  );
}
