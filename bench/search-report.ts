// The search benchmark's results (issue 20): each term's first request against the unfiltered page 1, the
// combinations of search, filters, sorts and pages, the mix under load, the totals against an independent
// count; their summaries and tables (console and Markdown). Pure.
import { percentile, type Measure } from './stats.ts';
import type { TermKind } from './search-terms.ts';

/** A first request is within the goal when it takes at most this many times the unfiltered page 1. */
export const CLIFF_FACTOR = 5;
export const MIX_P95_GOAL_MS = 50;

export interface TermResult {
  term: string;
  kind: TermKind;
  /** Client-side time of the term's first request in that server process (ms). */
  ms: number;
  status: number;
  /** The API's total (NaN when it failed). */
  total: number;
  /** The independent count (search-terms.ts: case and accents ignored). */
  expected: number;
  /** The same with case only ignored: accents kept (a search that does not fold them finds this). */
  caseOnly: number;
}

export interface ComboResult {
  term: string;
  kind: TermKind;
  filter: string;
  sort: 'name' | 'email' | 'lastLogin';
  order: 'asc' | 'desc';
  page: number;
  /** Whether this request was the first of its search and filter (its total counted, not kept). */
  firstOfFilter: boolean;
  ms: number;
  status: number;
  total: number;
}

export interface SearchSizeRun {
  users: number;
  label: string;
  database: string;
  /** The unfiltered page 1 (the SPA's default request), 7 times on one connection. */
  baselineSamples: number[];
  baselineMs: number;
  filters: { siren: string; siret: string; role: string; organizationAdmin: string };
  /** Searches of other terms answered before the measured ones, unmeasured (absent in runs before them). */
  warmUpSearches?: number;
  /** Unmeasured searches of warm-up terms with each filter (and as the organization administrator) before the combinations. */
  filterWarmUpSearches?: number;
  terms: TermResult[];
  combos: ComboResult[];
  mix: Measure & { statuses: Record<string, number>; connections: number; duration: number; terms: number; /** Seconds of unmeasured load before (absent in runs before it). */ warmUp?: number };
  /** Load average (1, 5, 15 min) before and after the run. */
  load: { before: number[]; after: number[] };
  seconds: number;
}

export interface SearchReport {
  generatedAt: string;
  machine: string;
  commit: string;
  settings: { seed: number; connections: number; duration: number; poolSize: number; node: string; postgres: string; request: string; exactness: string };
  runs: SearchSizeRun[];
}

export interface KindSummary {
  kind: TermKind;
  terms: number;
  p50: number;
  max: number;
}

export interface TermsSummary {
  p50: number;
  p95: number;
  max: number;
  /** Terms whose first request took more than CLIFF_FACTOR × the baseline. */
  aboveGoal: number;
  slowest: TermResult[];
  perKind: KindSummary[];
  mismatches: TermResult[];
  /** Mismatches whose total is not even the case-only count: wrong whatever the accents. */
  unexplained: TermResult[];
  failures: TermResult[];
}

const sortedMs = (items: readonly { ms: number }[]) => items.map((i) => i.ms).sort((a, b) => a - b);

export function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 0.5);
}

export function summarizeTerms(terms: readonly TermResult[], baselineMs: number, slowest = 10): TermsSummary {
  const ok = terms.filter((t) => t.status === 200);
  const all = sortedMs(ok);
  const kinds = [...new Set(terms.map((t) => t.kind))];
  return {
    p50: percentile(all, 0.5),
    p95: percentile(all, 0.95),
    max: all.length ? all[all.length - 1]! : Number.NaN,
    aboveGoal: terms.filter((t) => t.status !== 200 || t.ms > CLIFF_FACTOR * baselineMs).length,
    slowest: [...ok].sort((a, b) => b.ms - a.ms).slice(0, slowest),
    perKind: kinds.map((kind) => {
      const of = sortedMs(ok.filter((t) => t.kind === kind));
      return { kind, terms: terms.filter((t) => t.kind === kind).length, p50: percentile(of, 0.5), max: of.length ? of[of.length - 1]! : Number.NaN };
    }),
    mismatches: ok.filter((t) => t.total !== t.expected),
    unexplained: ok.filter((t) => t.total !== t.expected && t.total !== t.caseOnly),
    failures: terms.filter((t) => t.status !== 200),
  };
}

export function summarizeCombos(combos: readonly ComboResult[], baselineMs: number) {
  const ok = combos.filter((c) => c.status === 200);
  const all = sortedMs(ok);
  return {
    requests: combos.length,
    p50: percentile(all, 0.5),
    p95: percentile(all, 0.95),
    max: all.length ? all[all.length - 1]! : Number.NaN,
    aboveGoal: combos.filter((c) => c.status !== 200 || c.ms > CLIFF_FACTOR * baselineMs).length,
    slowest: [...combos].sort((a, b) => (b.status !== 200 ? 1 : 0) - (a.status !== 200 ? 1 : 0) || b.ms - a.ms).slice(0, 15),
  };
}

const ms = (value: number) => (Number.isFinite(value) ? (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)) : '–');
const num = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en') : '–');
const loads = (values: readonly number[]) => values.map((v) => v.toFixed(2)).join(', ');
const quoted = (term: string) => `'${term}'`;
const statuses = (counts: Record<string, number>) => Object.entries(counts).map(([status, n]) => `${num(n)} × HTTP ${status}`).join(', ');

function sizeLines(run: SearchSizeRun): string[] {
  const t = summarizeTerms(run.terms, run.baselineMs);
  const c = summarizeCombos(run.combos, run.baselineMs);
  const goal = CLIFF_FACTOR * run.baselineMs;
  const lines = [
    `## ${num(run.users)} users (${run.database})`,
    '',
    `Load average before ${loads(run.load.before)}, after ${loads(run.load.after)}; ${Math.round(run.seconds)} s.`,
    '',
    `- **Unfiltered page 1** (median of 7, one connection): **${ms(run.baselineMs)} ms** (${run.baselineSamples.map(ms).join(', ')}); goal for every first request: ≤ ${ms(goal)} ms (${CLIFF_FACTOR}×).`,
    `- **${run.terms.length} terms, each first request alone**${run.warmUpSearches ? ` (after ${run.warmUpSearches} unmeasured searches of other terms)` : ''}: p50 **${ms(t.p50)}**, p95 **${ms(t.p95)}**, max **${ms(t.max)}** ms; **${t.aboveGoal}** above ${CLIFF_FACTOR}× page 1${t.failures.length ? `; ${t.failures.length} failed` : ''}.`,
    `- **Combinations** (${c.requests} first requests: terms × filters × sorts × directions × pages${run.filterWarmUpSearches ? `, after ${run.filterWarmUpSearches} unmeasured searches of other terms with each filter` : ''}): p50 ${ms(c.p50)}, p95 ${ms(c.p95)}, max ${ms(c.max)} ms; **${c.aboveGoal}** above ${CLIFF_FACTOR}× page 1.`,
    `- **Mix under load** (${run.mix.connections} connections, ${run.mix.duration} s${run.mix.warmUp ? ` after a ${run.mix.warmUp} s warm-up` : ''}, ${run.mix.terms} terms in turn): p50 ${ms(run.mix.p50)}, p95 **${ms(run.mix.p95)}**, p99 ${ms(run.mix.p99)} ms, ${num(run.mix.rps)} req/s, ${run.mix.errors} errors (${statuses(run.mix.statuses)}; latencies of answered 2xx only; goal p95 ≤ ${MIX_P95_GOAL_MS} ms).`,
    `- **Exact totals**: ${t.mismatches.length} of ${run.terms.length - t.failures.length} terms differ from the independent count (case and accents ignored); ${t.unexplained.length} of them differ from the case-only count too (accents kept).`,
    '',
    '### Slowest terms (first request)',
    '',
    '| term | kind | total | ms | × page 1 |',
    '|---|---|---:|---:|---:|',
    ...t.slowest.map((r) => `| ${quoted(r.term)} | ${r.kind} | ${num(r.total)} | ${ms(r.ms)} | ${(r.ms / run.baselineMs).toFixed(1)} |`),
    '',
    '### By kind',
    '',
    '| kind | terms | p50 ms | max ms |',
    '|---|---:|---:|---:|',
    ...t.perKind.map((k) => `| ${k.kind} | ${k.terms} | ${ms(k.p50)} | ${ms(k.max)} |`),
    '',
    `### Combinations, slowest 15 (SIREN ${run.filters.siren}, SIRET ${run.filters.siret}, role ${run.filters.role}, organization admin ${run.filters.organizationAdmin})`,
    '',
    '| term | kind | filter | sort | page | total counted here | total | ms |',
    '|---|---|---|---|---:|---|---:|---:|',
    ...c.slowest.map((r) => `| ${quoted(r.term)} | ${r.kind} | ${r.filter} | ${r.sort} ${r.order} | ${num(r.page)} | ${r.firstOfFilter ? 'yes' : 'no (kept)'} | ${num(r.total)} | ${r.status === 200 ? ms(r.ms) : `HTTP ${r.status}`} |`),
    '',
    `### Totals that differ from the independent count (${t.mismatches.length})`,
    '',
  ];
  if (t.mismatches.length === 0) lines.push('None.');
  else {
    lines.push(
      '| term | kind | API total | expected (accents ignored) | case only (accents kept) |',
      '|---|---|---:|---:|---:|',
      ...t.mismatches.map((r) => `| ${quoted(r.term)} | ${r.kind} | ${num(r.total)} | ${num(r.expected)} | ${num(r.caseOnly)} |`),
    );
  }
  if (t.failures.length) lines.push('', `Failed: ${t.failures.map((r) => `${quoted(r.term)} (HTTP ${r.status})`).join(', ')}.`);
  return [...lines, ''];
}

export function markdownSearchReport(report: SearchReport): string {
  const s = report.settings;
  const growth = report.runs.length > 1 ? growthLines(report) : [];
  return [
    `# Users search benchmark (issue 20), ${report.generatedAt.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Machine: ${report.machine}; ${s.node}, PostgreSQL ${s.postgres}; commit ${report.commit}. Server in production mode, pool ${s.poolSize}.`,
    `Each request as the back office: \`${s.request}\`. Terms drawn with seed ${s.seed} from each database's own vocabulary; exactness: ${s.exactness}.`,
    '',
    ...growth,
    ...report.runs.flatMap(sizeLines),
  ].join('\n');
}

function growthLines(report: SearchReport): string[] {
  return [
    '| users | page 1 ms | terms p50 | p95 | max | terms > 5× | combos max | combos > 5× | mix p95 | mix req/s | mismatches |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.runs.map((run) => {
      const t = summarizeTerms(run.terms, run.baselineMs);
      const c = summarizeCombos(run.combos, run.baselineMs);
      return `| ${num(run.users)} | ${ms(run.baselineMs)} | ${ms(t.p50)} | ${ms(t.p95)} | ${ms(t.max)} | ${t.aboveGoal} | ${ms(c.max)} | ${c.aboveGoal} | ${ms(run.mix.p95)} | ${num(run.mix.rps)} | ${t.mismatches.length} |`;
    }),
    '',
  ];
}

export function consoleSearchReport(report: SearchReport): string {
  return report.runs
    .map((run) => {
      const t = summarizeTerms(run.terms, run.baselineMs);
      const c = summarizeCombos(run.combos, run.baselineMs);
      return [
        `${run.label}: page 1 ${ms(run.baselineMs)} ms | ${run.terms.length} terms p50 ${ms(t.p50)} p95 ${ms(t.p95)} max ${ms(t.max)} ms, ${t.aboveGoal} above ${CLIFF_FACTOR}× | combos max ${ms(c.max)} ms, ${c.aboveGoal} above | mix p95 ${ms(run.mix.p95)} ms, ${num(run.mix.rps)} req/s, ${run.mix.errors} errors | ${t.mismatches.length} mismatches`,
        ...t.slowest.map((r) => `    ${r.kind.padEnd(22)} ${quoted(r.term).padEnd(40)} total ${num(r.total).padStart(9)}  ${ms(r.ms).padStart(6)} ms`),
        ...t.perKind.map((k) => `    kind ${k.kind.padEnd(22)} ${String(k.terms).padStart(3)} terms  p50 ${ms(k.p50).padStart(6)}  max ${ms(k.max).padStart(6)} ms`),
      ].join('\n');
    })
    .join('\n');
}
