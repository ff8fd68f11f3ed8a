// The report of `npm run bench:bulk` (issue 22): the job's duration and rate, and each other scenario's p95 before
// the job and while it ran. Pure.

export interface BulkArgs {
  /** Persons of the job (default 10,000). */
  persons: number;
  /** Seconds of load per scenario slice (default 2). */
  slice: number;
  connections: number;
  force: boolean;
  /** The job alone, without the read scenarios (a shared machine: no load put on the others). */
  alone: boolean;
}

export function parseBulkArgs(argv: readonly string[]): BulkArgs {
  const args: BulkArgs = { persons: 10_000, slice: 2, connections: 32, force: false, alone: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [arg, undefined];
    if ((name === '--force' || name === '--alone') && inline === undefined) {
      args[name === '--force' ? 'force' : 'alone'] = true;
      continue;
    }
    const key = ({ '--persons': 'persons', '--slice': 'slice', '--connections': 'connections' } as const)[name];
    const value = Number(inline ?? argv[(i += 1)]);
    if (!key) throw new Error(`unknown argument '${arg}' (expected --persons …, --slice …, --connections …, --force, --alone)`);
    if (!Number.isInteger(value) || value < 1 || (key === 'persons' && value > 10_000)) throw new Error(`${name} needs a whole number from 1${key === 'persons' ? ' to 10000' : ''}`);
    args[key] = value;
  }
  return args;
}

export interface SliceResult {
  scenario: string;
  p95: number;
  rps: number;
  errors: number;
}

export interface BulkReport {
  at: string;
  database: string;
  users: number;
  persons: number;
  cpus: number;
  node: string;
  /** From the job's createdAt to its finishedAt (the server's clock). */
  jobSeconds: number;
  succeeded: number;
  refusals: number;
  /** The restoring job (reactivate the same persons), without other load. */
  restoreSeconds: number;
  rssPeakMb: number;
  /** The job ran alone (--alone): no scenario before nor during it. */
  alone?: boolean;
  /** The machine's load average (1 min) when the job started and when it ended: other work sharing the CPUs. */
  loadAverage?: [number, number];
  cpusBusy: number;
  cpusOthers: number;
  before: SliceResult[];
  /** Slices that ended while the job was still running. */
  during: SliceResult[];
}

/** Goal of issue 22: 10,000 persons within 30 s on the 1M-user database. */
export const GOAL_SECONDS = 30;

const ms = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(1));

export function bulkMarkdown(report: BulkReport): string {
  const scenarios = [...new Set([...report.before, ...report.during].map((s) => s.scenario))];
  const worst = (slices: SliceResult[], name: string) => {
    const found = slices.filter((s) => s.scenario === name);
    return found.length ? Math.max(...found.map((s) => s.p95)) : undefined;
  };
  const rate = report.persons / report.jobSeconds;
  return [
    `# Actions on many users benchmark (${report.at.slice(0, 16).replace('T', ' ')} UTC, ${report.users.toLocaleString('en')} users, ${report.cpus} CPUs, Node ${report.node})`,
    '',
    `- Job: ${report.persons.toLocaleString('en')} persons deactivated in ${report.jobSeconds.toFixed(1)} s (${Math.round(rate).toLocaleString('en')} a second; goal ${GOAL_SECONDS} s for 10,000: ${report.persons === 10_000 ? (report.jobSeconds <= GOAL_SECONDS ? 'met' : 'missed') : 'not measured at 10,000'}), ${report.succeeded.toLocaleString('en')} succeeded, ${report.refusals} refused, ${report.alone ? 'alone (no other load from the benchmark)' : 'while the other scenarios ran'}.`,
    ...(report.loadAverage ? [`- Machine load average (1 min): ${report.loadAverage[0].toFixed(2)} at the job's start, ${report.loadAverage[1].toFixed(2)} at its end.`] : []),
    `- Restoring them (a reactivation job, no other load): ${report.restoreSeconds.toFixed(1)} s.`,
    `- Server RSS peak ${report.rssPeakMb.toFixed(0)} MB; CPUs busy ${(report.cpusBusy * 100).toFixed(0)} % (others ${(report.cpusOthers * 100).toFixed(0)} %) while the job ran.`,
    '',
    '| scenario | p95 before (ms) | p95 during the job, worst slice (ms) |',
    '|---|---:|---:|',
    ...scenarios.map((name) => `| ${name} | ${ms(worst(report.before, name))} | ${ms(worst(report.during, name))} |`),
    '',
  ].join('\n');
}
