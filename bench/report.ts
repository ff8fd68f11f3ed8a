// The benchmark's results, the goals of issue 8 checked against them, and their tables (console and
// Markdown). Pure.
import type { Measure } from './stats.ts';

export interface ScenarioResult {
  name: string;
  title: string;
  kind: 'read' | 'write';
  /** Distinct requests taken in turn (ids, emails, SIRENs). */
  variants: number;
  /** SQL statements per request, as captured (BEGIN/COMMIT included). */
  statements: number;
  /** What the first request answered, e.g. its total. */
  answer: string;
  http: Measure;
  db: Measure;
  /** p50 of a first request's statements (a filtered total counted, not kept), on one connection. */
  firstRequestDbMs: number;
  /** Highest resident memory of the server while this scenario's load ran. */
  rssMb: number;
  /** CPUs busy on average during the load, and the part of them other processes than the benchmark's took. */
  machine: { busy: number; others: number };
}

export interface SizeRun {
  users: number;
  label: string;
  database: string;
  counts: { users: number; sirens: number; sirets: number; assignments: number; invitations: number; pending: number };
  /** GET /healthz under the same load: the HTTP floor. */
  httpFloor: Measure;
  scenarios: ScenarioResult[];
  /** Load average (1 min) of the machine before and after the run, and its CPUs. */
  load: { before: number; after: number; cpus: number };
}

export interface BenchReport {
  generatedAt: string;
  settings: { connections: number; duration: number; poolSize: number; node: string; postgres: string };
  runs: SizeRun[];
}

/** The goals of issue 8. */
export const GOALS = {
  readP95Ms: 50,
  usersListRps: 1_000,
  floorFactor: 1.5,
  writeP95Ms: 100,
  rssMb: 300,
} as const;

export interface GoalCheck {
  goal: string;
  met: boolean;
  detail: string;
}

const ms = (value: number) => (Number.isFinite(value) ? (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)) : '–');
const cpus = (machine: { busy: number; others: number }) => (Number.isFinite(machine.busy) ? `${machine.busy.toFixed(1)} (${machine.others.toFixed(1)})` : '–');
const num = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en') : '–');

/** The p50 budget of a scenario: 1.5 × its database floor's p50 + the HTTP floor's p50. */
export function floorBudget(scenario: Pick<ScenarioResult, 'db'>, httpFloor: Pick<Measure, 'p50'>): number {
  return GOALS.floorFactor * scenario.db.p50 + httpFloor.p50;
}

export function checkScenario(scenario: ScenarioResult, httpFloor: Measure): GoalCheck[] {
  const checks: GoalCheck[] = [];
  const { http } = scenario;
  if (scenario.kind === 'read') {
    checks.push({ goal: `p95 ≤ ${GOALS.readP95Ms} ms`, met: http.p95 <= GOALS.readP95Ms, detail: `p95 ${ms(http.p95)} ms` });
    checks.push({ goal: 'no error', met: http.errors === 0 && http.requests > 0, detail: `${num(http.errors)} errors` });
  } else {
    checks.push({ goal: `p95 ≤ ${GOALS.writeP95Ms} ms`, met: http.p95 <= GOALS.writeP95Ms, detail: `p95 ${ms(http.p95)} ms` });
    checks.push({ goal: 'no error', met: http.errors === 0 && http.requests > 0, detail: `${num(http.errors)} errors` });
  }
  if (scenario.name === 'users-list') {
    checks.push({ goal: `≥ ${num(GOALS.usersListRps)} req/s`, met: http.rps >= GOALS.usersListRps, detail: `${num(http.rps)} req/s` });
  }
  const budget = floorBudget(scenario, httpFloor);
  checks.push({ goal: 'p50 ≤ 1.5 × DB floor + HTTP floor', met: http.p50 <= budget, detail: `p50 ${ms(http.p50)} ms vs ${ms(budget)} ms` });
  checks.push({ goal: `memory ≤ ${GOALS.rssMb} MB`, met: scenario.rssMb <= GOALS.rssMb, detail: `RSS ${num(scenario.rssMb)} MB` });
  return checks;
}

export const missed = (checks: readonly GoalCheck[]) => checks.filter((c) => !c.met);

function verdict(checks: readonly GoalCheck[]): string {
  const misses = missed(checks);
  return misses.length === 0 ? 'all met' : `MISSED: ${misses.map((m) => `${m.goal} (${m.detail})`).join('; ')}`;
}

const HEADERS = ['scenario', 'p50 ms', 'p95 ms', 'p99 ms', 'req/s', 'errors', 'DB floor p50', 'DB floor req/s', 'p50 ÷ budget', '1st request DB ms', 'RSS MB', 'CPUs busy (others)', 'goals'];

function scenarioRow(scenario: ScenarioResult, httpFloor: Measure): string[] {
  const { http, db } = scenario;
  return [
    `${scenario.title}${scenario.kind === 'write' ? ' (write)' : ''}`,
    ms(http.p50),
    ms(http.p95),
    ms(http.p99),
    num(http.rps),
    num(http.errors),
    ms(db.p50),
    num(db.rps),
    (http.p50 / floorBudget(scenario, httpFloor)).toFixed(2),
    ms(scenario.firstRequestDbMs),
    num(scenario.rssMb),
    cpus(scenario.machine),
    verdict(checkScenario(scenario, httpFloor)),
  ];
}

function floorRow(httpFloor: Measure): string[] {
  return ['HTTP floor: GET /healthz', ms(httpFloor.p50), ms(httpFloor.p95), ms(httpFloor.p99), num(httpFloor.rps), num(httpFloor.errors), '', '', '', '', '', '', ''];
}

export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`)].join('\n');
}

/** Columns padded to their widest cell, for a terminal. */
export function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function runRows(run: SizeRun): string[][] {
  return [floorRow(run.httpFloor), ...run.scenarios.map((s) => scenarioRow(s, run.httpFloor))];
}

export function runHeading(run: SizeRun): string {
  const c = run.counts;
  return `${run.label}: ${num(c.users)} users, ${num(c.sirens)} SIRENs, ${num(c.sirets)} SIRETs, ${num(c.assignments)} role assignments, ${num(c.invitations)} invitations (${num(c.pending)} pending) — database ${run.database}; load average ${run.load.before.toFixed(1)} before, ${run.load.after.toFixed(1)} after, on ${run.load.cpus} CPUs`;
}

/** How each read scenario grows from the smallest size to the largest: p50, p95 and req/s at each size. */
export function growthRows(runs: readonly SizeRun[]): { headers: string[]; rows: string[][] } {
  const sorted = [...runs].sort((a, b) => a.users - b.users);
  const names = sorted[0]?.scenarios.filter((s) => s.kind === 'read').map((s) => s.name) ?? [];
  const headers = ['scenario', ...sorted.map((r) => `${r.label} p50 / p95 ms, req/s`), sorted.length > 1 ? `p50 ×, ${sorted[0]!.label} → ${sorted.at(-1)!.label}` : 'p50 ×'];
  const rows = names.map((name) => {
    const cells = sorted.map((run) => run.scenarios.find((s) => s.name === name));
    const first = cells[0]?.http.p50 ?? Number.NaN;
    const last = cells.at(-1)?.http.p50 ?? Number.NaN;
    return [
      // Without what differs by size (the deep page's number).
      (cells.find(Boolean)?.title ?? name).replace(/ \([^)]*\)$/, ''),
      ...cells.map((s) => (s ? `${ms(s.http.p50)} / ${ms(s.http.p95)}, ${num(s.http.rps)}` : '–')),
      Number.isFinite(first) && Number.isFinite(last) && first > 0 ? `× ${(last / first).toFixed(1)}` : '–',
    ];
  });
  return { headers, rows };
}

export function consoleReport(report: BenchReport): string {
  const parts: string[] = [];
  for (const run of report.runs) parts.push(`\n${runHeading(run)}\n\n${textTable(HEADERS, runRows(run))}`);
  if (report.runs.length > 1) {
    const growth = growthRows(report.runs);
    parts.push(`\nGrowth of the read scenarios\n\n${textTable(growth.headers, growth.rows)}`);
  }
  return parts.join('\n');
}

export function markdownReport(report: BenchReport): string {
  const s = report.settings;
  const parts = [
    '# Benchmark results',
    '',
    `Generated ${report.generatedAt} by \`npm run bench\`: ${s.connections} connections of load per scenario (autocannon, another process than the server), ${s.duration} s each, ` +
      `a pool of ${s.poolSize} connections in the server (production mode) and for the database floor; Node ${s.node}, PostgreSQL ${s.postgres}.`,
    '',
    `Goals: every read p95 ≤ ${GOALS.readP95Ms} ms without error; users list ≥ ${num(GOALS.usersListRps)} req/s; every p50 ≤ ${GOALS.floorFactor} × its database floor's p50 + the HTTP floor's p50 ("p50 ÷ budget" ≤ 1); writes p95 ≤ ${GOALS.writeP95Ms} ms; server memory ≤ ${GOALS.rssMb} MB.`,
    '',
    'Columns: latencies of the successful requests under the load; errors are connection errors, timeouts and non-2xx answers. ' +
      'DB floor: the statements the server ran for these requests, replayed through pg on as many connections (a steady server keeps filtered totals, so their count is not among them). ' +
      '1st request DB ms: the statements of a first request, whose filtered total is counted, one connection. ' +
      'RSS: the server process, highest while the load ran. CPUs busy (others): how busy the 2 CPUs were during the load, and the part other processes than the benchmark took.',
  ];
  for (const run of report.runs) parts.push('', `## ${runHeading(run)}`, '', markdownTable(HEADERS, runRows(run)));
  if (report.runs.length > 1) {
    const growth = growthRows(report.runs);
    parts.push('', '## Growth of the read scenarios', '', markdownTable(growth.headers, growth.rows));
  }
  return `${parts.join('\n')}\n`;
}
