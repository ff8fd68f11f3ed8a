// The figures of the lifecycle machines the server drives (issue 24): GET /workflows/{id}/figures and its CSV file.
// Each machine has a figures source, which reads its numbers from the data within the caller's scope; the model lays
// them on the machine's states and arrows. Adding a machine is adding a source to FIGURES_SOURCES: its machine, whose
// items the caller may count (the policy), and how it reads them.
import type { Kysely } from 'kysely';
import type { AnyStateMachine } from 'xstate';
import { accountLifecycleMachine } from '../../../rules/account-lifecycle.machine.ts';
import { requestLifecycleMachine } from '../../../rules/request-lifecycle.machine.ts';
import type { Actor } from '../../core/actor.ts';
import { invalid } from '../../core/errors.ts';
import { KeptAnswers, keyOf } from '../../db/kept-answers.ts';
import type { ListName } from '../../db/list-totals.ts';
import type { Database } from '../../db/schema.ts';
import { csvAttachment, csvHead, csvRows } from '../exports/csv.model.ts';
import type { CsvDownload } from '../exports/exports.service.ts';
import type { ServiceDeps } from '../services.ts';
import { INVITATION_STATUSES } from '../invitations/invitations.repository.ts';
import { readAccountFigures, readAccountFiguresChange } from './account-figures.repository.ts';
import { readRequestFigures, readRequestFiguresChange } from './request-figures.repository.ts';
import {
  assembleFigures,
  figuresCsvRows,
  figuresPeriodOf,
  FIGURES_CSV_COLUMNS,
  FIGURES_MESSAGES,
  machineShape,
  type FiguresPeriod,
  type SourceFigures,
  type WorkflowFigures,
} from './workflow-figures.model.ts';
import { accountFiguresScopeFor, figuresScopeFor } from './workflow-figures.policy.ts';

/** A machine whose figures the server computes, whose items the caller may count, and how it reads them from the data. */
export interface FiguresSource<Scope = unknown> {
  machine: AnyStateMachine;
  scopeFor(actor: Actor): Scope;
  read(db: Kysely<Database>, scope: Scope, period: FiguresPeriod): Promise<SourceFigures>;
  /**
   * To keep its figures between requests (db/kept-answers.ts): the lists whose versions move with every change of
   * the data it reads, and the earliest moment the clock alone changes them (null: never). Without it, read each time.
   */
  keep?: {
    lists(scope: Scope): ListName[];
    changesAt(db: Kysely<Database>, scope: Scope, period: FiguresPeriod): Promise<Date | null>;
  };
}

const figuresSource = <Scope>(source: FiguresSource<Scope>) => source as FiguresSource;

/** The requests: a status is the state of the same name; every move leaves PENDING. */
const MOVED = INVITATION_STATUSES.filter((status) => status !== 'PENDING');
const requestFigures = figuresSource({
  machine: requestLifecycleMachine,
  scopeFor: figuresScopeFor,
  async read(db, scope, period) {
    const rows = await readRequestFigures(db, scope, MOVED, period.from, period.to);
    const stateOf = (status: string | null) => (status ?? '').toLowerCase();
    return {
      states: Object.fromEntries(rows.filter((r) => r.kind === 'state').map((r) => [stateOf(r.status), r.n])),
      started: rows.find((r) => r.kind === 'started')?.n ?? 0,
      moves: rows.filter((r) => r.kind === 'move').map((r) => ({ from: 'pending', to: stateOf(r.status), count: r.n, medianSeconds: r.median })),
    };
  },
  keep: {
    // A requester's figures also depend on their organizations' codes, whose changes move the organizations' version.
    lists: (scope) => (scope.kind === 'all' ? ['invitations'] : ['invitations', 'organizations']),
    changesAt: (db, scope, period) => readRequestFiguresChange(db, scope, MOVED, period.from, period.to),
  },
});

/** The guard of a move by who made it: a person's, or the portal's (the dormancy jobs). */
const ACCOUNT_GUARDS = { person: 'isPersonMove', system: { deactivated: 'canSystemDeactivate', deleted: 'canSystemDelete' } } as const;

/** The accounts: the states now, a deleted account counted over the period (it no longer exists). */
const accountFigures = figuresSource({
  machine: accountLifecycleMachine,
  scopeFor: accountFiguresScopeFor,
  async read(db, scope, period) {
    const rows = await readAccountFigures(db, scope, period.from, period.to);
    const moves = rows
      .filter((r) => r.kind === 'move' || r.kind === 'warn')
      .map((r) => {
        const guard = r.kind === 'warn' ? undefined : r.mover === 'person' ? ACCOUNT_GUARDS.person : r.mover === 'system' ? ACCOUNT_GUARDS.system[r.target as 'deactivated' | 'deleted'] : undefined;
        return { from: r.source!, to: r.target!, ...(guard ? { guard } : {}), count: r.n, medianSeconds: r.median };
      })
      .filter((m) => m.count > 0);
    const deleted = moves.filter((m) => m.to === 'deleted').reduce((sum, m) => sum + m.count, 0);
    return {
      states: { ...Object.fromEntries(rows.filter((r) => r.kind === 'state').map((r) => [r.source!, r.n])), deleted },
      periodStates: ['deleted'],
      started: rows.find((r) => r.kind === 'started')?.n ?? 0,
      moves,
    };
  },
  keep: {
    // The journal's entries, the accounts' states and scopes (roles, organizations), and the warnings.
    lists: () => ['journal', 'users', 'dormancy'],
    changesAt: (db, _scope, period) => readAccountFiguresChange(db, period.from, period.to),
  },
});

export const FIGURES_SOURCES: Readonly<Record<string, FiguresSource>> = {
  'request-lifecycle': requestFigures,
  'account-lifecycle': accountFigures,
};

export function workflowFiguresService(deps: ServiceDeps) {
  const sourceOf = (workflowId: string) => {
    const source = Object.hasOwn(FIGURES_SOURCES, workflowId) ? FIGURES_SOURCES[workflowId] : undefined;
    if (!source) throw invalid([{ field: 'params.workflowId', message: FIGURES_MESSAGES.unknownWorkflow(workflowId) }]);
    return source;
  };
  const kept = new KeptAnswers();
  /** The source's figures for the period: kept while neither the data nor the period's rows change (FiguresSource.keep). */
  const read = (source: FiguresSource, key: string, scope: unknown, period: FiguresPeriod): Promise<SourceFigures> => {
    const { keep } = source;
    if (!keep) return source.read(deps.db, scope, period);
    return kept.answer(deps.db, keyOf(key, period.days, scope), period.to, keep.lists(scope), async (trx) => ({
      answer: await source.read(trx, scope, period),
      until: await keep.changesAt(trx, scope, period),
    }));
  };
  const figures = async (actor: Actor, workflowId: string, days: number | undefined): Promise<WorkflowFigures> => {
    const source = sourceOf(workflowId);
    const scope = source.scopeFor(actor);
    const period = figuresPeriodOf(days, deps.now());
    return assembleFigures(workflowId, source.machine, period, await read(source, workflowId, scope, period));
  };

  return {
    /** GET /workflows/{id}/figures: the machine's states now and its transitions over the period, within the caller's scope. */
    figures,

    /** GET /workflows/{id}/figures/export: the same figures as a CSV file (the journal export's format); not journaled (no personal data). */
    async figuresCsv(actor: Actor, workflowId: string, days: number | undefined): Promise<CsvDownload> {
      const answer = await figures(actor, workflowId, days);
      const { initial } = machineShape(sourceOf(workflowId).machine);
      const { fileName, contentDisposition } = csvAttachment(`${workflowId}-${answer.days}j`, new Date(answer.to));
      const text = csvHead(FIGURES_CSV_COLUMNS) + csvRows(FIGURES_CSV_COLUMNS, figuresCsvRows(answer, initial));
      return { fileName, contentDisposition, chunks: (async function* () { yield text; })() };
    },
  };
}
