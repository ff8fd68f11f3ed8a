import type { ReactNode } from 'react';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

/** A centred full-page message: sign-in steps, errors. */
export function StatusPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <>
      <SkipLink />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex min-h-screen items-center justify-center bg-slate-100 p-4">
        <div className="w-full max-w-md rounded-xl bg-white p-8 text-center shadow">
          <h1 className="mb-4 text-xl font-semibold text-slate-900">{title}</h1>
          {children}
        </div>
      </main>
    </>
  );
}
