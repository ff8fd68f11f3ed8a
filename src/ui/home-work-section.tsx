import type { ReactNode } from 'react';

export type HomeWorkState =
  | { kind: 'loading'; label: string }
  | { kind: 'failed'; message: string; retry: string; onRetry: () => void }
  | { kind: 'empty'; message: string }
  | { kind: 'lines'; lines: { key: string; content: ReactNode }[] };

/** The Accueil's 'À traiter' card: its lines (each holding its links), or what stands instead of them. */
export function HomeWorkSection({ title, state }: { title: string; state: HomeWorkState }) {
  return (
    <section aria-labelledby="dashboard-work" aria-busy={state.kind === 'loading'} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="dashboard-work" className="mb-3 text-lg font-semibold text-brand-800">
        {title}
      </h2>
      {state.kind === 'loading' && (
        <p role="status" className="text-slate-600">
          {state.label}
        </p>
      )}
      {state.kind === 'failed' && (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-red-800">
          <p>{state.message}</p>
          <button type="button" onClick={state.onRetry} className="rounded-lg border border-red-300 px-3 py-1 font-medium hover:bg-red-50">
            {state.retry}
          </button>
        </div>
      )}
      {state.kind === 'empty' && <p className="text-slate-700">{state.message}</p>}
      {state.kind === 'lines' && (
        <ul className="list-disc space-y-2 pl-5 text-slate-800">
          {state.lines.map((line) => (
            <li key={line.key}>{line.content}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
