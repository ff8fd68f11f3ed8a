// The person's confirmation of their new address (issue 19), as the e-mail confirmation machine's states show it.
import type { ReactNode } from 'react';
import { Spinner } from '../spinner';
import { frAccount } from '../../i18n/fr-account';

const t = frAccount.emailConfirmation;

export type EmailConfirmationView =
  | { kind: 'loading' }
  | { kind: 'invalidLink' }
  | { kind: 'nothingPending'; accountEmail: string }
  | { kind: 'ready'; currentEmail: string; nextEmail: string; confirming: boolean }
  | { kind: 'confirmed'; email: string }
  | { kind: 'failed'; message: string; retryable: boolean; offerSignOut: boolean };

export interface EmailConfirmationActions {
  onConfirm: () => void;
  onRetry: () => void;
  onSignOut: () => void;
  /** A link back to the home page (the router's Link, given by the route). */
  home: ReactNode;
}

const primary = 'rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60';
const secondary = 'rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="max-w-2xl space-y-4" aria-labelledby="email-confirmation-title">
      <h1 id="email-confirmation-title" className="text-2xl font-bold text-slate-900">
        {title}
      </h1>
      {children}
    </section>
  );
}

function SignOutButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className={secondary} onClick={onClick}>
      {t.signOut}
    </button>
  );
}

export function EmailConfirmationPage({ view, actions }: { view: EmailConfirmationView; actions: EmailConfirmationActions }) {
  switch (view.kind) {
    case 'loading':
      return <Spinner label={t.loading} />;
    case 'invalidLink':
      return (
        <Panel title={t.invalidTitle}>
          <p className="text-slate-700">{t.invalidLink}</p>
          {actions.home}
        </Panel>
      );
    case 'nothingPending':
      return (
        <Panel title={t.nothingTitle}>
          <p className="break-words text-slate-700">{t.nothingPending(view.accountEmail)}</p>
          <p className="text-slate-700">{t.otherAccountHint}</p>
          <div className="flex flex-wrap items-center gap-4">
            <SignOutButton onClick={actions.onSignOut} />
            {actions.home}
          </div>
        </Panel>
      );
    case 'ready':
      return (
        <Panel title={t.title}>
          <dl className="grid gap-3 rounded-xl bg-white p-4 shadow-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
            <dt className="text-sm font-medium text-slate-600">{t.current}</dt>
            <dd className="break-all text-slate-900">{view.currentEmail}</dd>
            <dt className="text-sm font-medium text-slate-600">{t.next}</dt>
            <dd className="break-all font-semibold text-slate-900">{view.nextEmail}</dd>
          </dl>
          <p className="text-slate-700">{t.explanation}</p>
          <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">{t.warning}</p>
          <button type="button" className={primary} onClick={actions.onConfirm} disabled={view.confirming} aria-busy={view.confirming}>
            {view.confirming ? t.confirming : t.confirm}
          </button>
        </Panel>
      );
    case 'confirmed':
      return (
        <Panel title={t.confirmedTitle}>
          <p role="status" className="break-words text-slate-700">
            {t.confirmed(view.email)}
          </p>
          <button type="button" className={primary} onClick={actions.onSignOut}>
            {t.signInAgain}
          </button>
        </Panel>
      );
    case 'failed':
      return (
        <Panel title={t.failedTitle}>
          <p role="alert" className="text-slate-700">
            {view.message}
          </p>
          <div className="flex flex-wrap items-center gap-4">
            {view.retryable && (
              <button type="button" className={primary} onClick={actions.onRetry}>
                {t.retry}
              </button>
            )}
            {view.offerSignOut && <SignOutButton onClick={actions.onSignOut} />}
            {actions.home}
          </div>
        </Panel>
      );
  }
}
