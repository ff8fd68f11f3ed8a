import { useEffect, useMemo } from 'react';
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { emailConfirmationMachine, isRetryable } from '../machines/email-confirmation/email-confirmation.machine';
import { emailConfirmationActors } from '../machines/email-confirmation/email-confirmation.actors';
import { forgetEmailConfirmation } from '../auth/return-after-sign-in';
import { useDocumentTitle } from '../lib/use-document-title';
import { EmailConfirmationPage, type EmailConfirmationView } from '../ui/account/email-confirmation-page';
import { frAccount } from '../i18n/fr-account';

const t = frAccount.emailConfirmation;

function EmailConfirmationScreen() {
  const { api } = Route.useRouteContext();
  const { token } = Route.useSearch() as { token?: string };
  const navigate = useNavigate();
  const machine = useMemo(() => emailConfirmationMachine.provide(emailConfirmationActors(api)), [api]);
  const [snapshot, send] = useMachine(machine, { input: { token: token ?? null } });
  useDocumentTitle(t.documentTitle);
  // Signed in and here: the sign-in has nothing more to come back to.
  useEffect(() => forgetEmailConfirmation(), []);

  const { account, confirmedEmail, failure } = snapshot.context;
  const view: EmailConfirmationView = snapshot.matches('invalidLink')
    ? { kind: 'invalidLink' }
    : snapshot.matches('nothingPending')
      ? { kind: 'nothingPending', accountEmail: account!.email }
      : snapshot.matches('ready') || snapshot.matches('confirming')
        ? { kind: 'ready', currentEmail: account!.email, nextEmail: account!.pendingEmail!, confirming: snapshot.matches('confirming') }
        : snapshot.matches('confirmed')
          ? { kind: 'confirmed', email: confirmedEmail! }
          : snapshot.matches('failed') || snapshot.matches('loadFailed')
            ? {
                kind: 'failed',
                message: isRetryable(failure) ? t.serverError : (failure?.message ?? t.serverError),
                retryable: isRetryable(failure),
                offerSignOut: failure?.status === 403,
              }
            : { kind: 'loading' };

  return (
    <EmailConfirmationPage
      view={view}
      actions={{
        onConfirm: () => send({ type: 'confirmation.confirm' }),
        onRetry: () => send({ type: 'confirmation.retry' }),
        onSignOut: () => void navigate({ to: '/authentication/sign-out' }),
        home: (
          <Link to="/dashboard" className="font-medium text-brand-700 hover:underline">
            {t.home}
          </Link>
        ),
      }}
    />
  );
}

export const Route = createLazyRoute('/shell/compte/confirmer-email')({ component: EmailConfirmationScreen });
