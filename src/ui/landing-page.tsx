import { frShell as fr } from '../i18n/fr-shell';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

export interface LandingPageProps {
  signedIn: boolean;
  onSignIn: () => void;
  onOpenPortal: () => void;
  /** The footer's 'Accessibilité : … conforme', to the statement. */
  accessibility: { label: string; href: string };
}

export function LandingPage({ signedIn, onSignIn, onOpenPortal, accessibility }: LandingPageProps) {
  return (
    <>
      <SkipLink />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex min-h-[calc(100vh-3.5rem)] items-center justify-center bg-gradient-to-br from-brand-50 to-slate-100 p-4">
        <div className="w-full max-w-xl rounded-2xl bg-white p-10 shadow-lg">
          <h1 className="mb-3 text-3xl font-bold text-brand-800">{fr.landing.title}</h1>
          <p className="mb-8 text-slate-700">{fr.landing.intro}</p>
          <button
            type="button"
            onClick={signedIn ? onOpenPortal : onSignIn}
            className="rounded-lg bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700"
          >
            {signedIn ? fr.landing.goToPortal : fr.landing.signIn}
          </button>
        </div>
      </main>
      <footer className="flex min-h-14 items-center justify-center bg-slate-100 px-4 py-3 text-sm text-slate-700">
        <a href={accessibility.href} className="hover:text-brand-700 hover:underline">
          {accessibility.label}
        </a>
      </footer>
    </>
  );
}
