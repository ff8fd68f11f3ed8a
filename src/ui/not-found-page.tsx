import { frShell as fr } from '../i18n/fr-shell';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

export function NotFoundPage({ onHome }: { onHome: () => void }) {
  return (
    <>
      <SkipLink />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-100 p-4 text-center">
        <p aria-hidden="true" className="text-7xl font-bold text-brand-600">404</p>
        <h1 className="text-2xl font-semibold text-slate-900">{fr.notFound.title}</h1>
        <p className="max-w-md text-slate-600">{fr.notFound.text}</p>
        <a
          href="/"
          onClick={(e) => {
            e.preventDefault();
            onHome();
          }}
          className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {fr.notFound.home}
        </a>
      </main>
    </>
  );
}
