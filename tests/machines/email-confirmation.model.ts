// The e-mail confirmation machine's model: the test replays its paths, `npm run charts` counts them and measures coverage.
import { fromPromise, type SnapshotFrom } from 'xstate';
import { emailConfirmationMachine, isRetryable, type ConfirmationFailure, type ConfirmingAccount } from '../../src/machines/email-confirmation/email-confirmation.machine';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

const modelMachine = emailConfirmationMachine.provide({
  actors: {
    loadAccount: fromPromise<ConfirmingAccount>(() => new Promise(() => {})),
    confirm: fromPromise<{ email: string }, { token: string }>(() => new Promise(() => {})),
  },
});

const waiting: ConfirmingAccount = { email: 'jeanne.martin@clinique.fr', pendingEmail: 'jeanne.martin@nouvelle-clinique.fr' };
const nothing: ConfirmingAccount = { email: 'admin.clinique@portail.test', pendingEmail: null };
const otherAccount: ConfirmationFailure = { status: 403, message: 'Ce lien concerne un autre compte : …' };
const unavailable: ConfirmationFailure = { status: 503, message: 'Service momentanément indisponible.' };
const network: ConfirmationFailure = { status: 0, message: null };

const events: ModelEvent<typeof modelMachine>[] = [
  { type: 'confirmation.confirm' },
  { type: 'confirmation.retry' },
  doneEvent('loadAccount', waiting),
  doneEvent('loadAccount', nothing),
  errorEvent('loadAccount', network),
  doneEvent('confirm', { email: waiting.pendingEmail }),
  errorEvent('confirm', otherAccount),
  errorEvent('confirm', unavailable),
];

export const model: MachineModel<typeof modelMachine> = {
  machine: modelMachine,
  inputs: {
    goodLink: { token: 'x'.repeat(43) },
    noToken: { token: null },
    malformedToken: { token: 'pas-un-jeton' },
  },
  events,
  serializeState: (s: SnapshotFrom<typeof modelMachine>) =>
    JSON.stringify([s.value, s.context.token === null ? 'none' : s.context.token.length, s.context.account?.pendingEmail ?? null, s.context.failure?.status ?? null]),
  describeEvent: (e) => ('output' in e && e.output && typeof e.output === 'object' && 'pendingEmail' in e.output ? `${e.type}(${e.output.pendingEmail ? 'waiting' : 'nothing'})` : 'error' in e ? `${e.type}(${(e.error as ConfirmationFailure).status})` : e.type),
  invariant: (s, last) => {
    const { token, account, confirmedEmail, failure } = s.context;
    const wellFormed = token !== null && /^[A-Za-z0-9_-]{43}$/.test(token);
    // No call without a well-formed token.
    if (!wellFormed && !s.matches('invalidLink')) throw new Error('a malformed link went further than its refusal');
    // The confirmation is offered and sent only for an account with a new address waiting.
    if ((s.matches('ready') || s.matches('confirming') || s.matches('confirmed')) && !account?.pendingEmail) throw new Error('confirming with no address waiting');
    if (s.matches('confirmed') && confirmedEmail !== account?.pendingEmail) throw new Error('confirmed another address than the one waiting');
    if ((s.matches('failed') || s.matches('loadFailed')) && !failure) throw new Error('failed without a failure');
    // A refusal is final: only a network or server failure is tried again.
    if (s.matches('confirming') && last?.type === 'confirmation.retry' && failure && !isRetryable(failure)) throw new Error('a refusal was sent again');
  },
};
