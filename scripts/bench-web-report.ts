// The tables of `npm run bench:web` (printed, and written as Markdown beside the JSON).
import { SEARCH_DEBOUNCE_MS, type SearchSample } from './bench-web-search';

export const GOALS = { performance: 95, accessibility: 100, bestPractices: 95, searchMs: 100 } as const;

export interface LighthouseRun {
  page: string;
  path: string;
  formFactor: 'desktop' | 'mobile';
  /** Scores 0-100 of the median run (by performance), and every run's performance score. */
  performance: number;
  accessibility: number;
  bestPractices: number;
  performanceRuns: number[];
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number; speedIndexMs: number };
  /** Audits that lost points in accessibility or best practices, and the performance opportunities worth >= 100 ms. */
  findings: string[];
}

export interface WebBenchResult {
  date: string;
  commit: string;
  machine: string;
  /** 1-minute load average before and after the run: other work on the machine skews the numbers (TBT above all). */
  load: { before: number; after: number };
  chromium: string;
  lighthouse: string;
  data: string;
  server: string;
  lighthouseRuns: LighthouseRun[];
  search: {
    samples: SearchSample[];
    medianMs: number;
    p95Ms: number;
    maxMs: number;
    medianFrameMs: number;
    medianApiMs: number | null;
    medianBeforeApiMs: number | null;
    medianAfterApiMs: number | null;
  };
  /** What happened during the run that the reader should know (e.g. a run repeated after the session was lost). */
  notes: string[];
  bundle: { shellKb: number; screens: { src: string; kb: number }[] };
  goalsMissed: string[];
}

const ok = (value: number, goal: number) => (value >= goal ? `${value}` : `**${value}** (goal ${goal})`);
const ms = (n: number) => `${Math.round(n)} ms`;

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function goalsMissed(result: Pick<WebBenchResult, 'lighthouseRuns' | 'search'>): string[] {
  const missed: string[] = [];
  for (const r of result.lighthouseRuns) {
    if (r.performance < GOALS.performance) missed.push(`${r.path} (${r.formFactor}): performance ${r.performance} < ${GOALS.performance}`);
    if (r.accessibility < GOALS.accessibility) missed.push(`${r.path} (${r.formFactor}): accessibility ${r.accessibility} < ${GOALS.accessibility}`);
    if (r.bestPractices < GOALS.bestPractices) missed.push(`${r.path} (${r.formFactor}): best practices ${r.bestPractices} < ${GOALS.bestPractices}`);
  }
  if (!(result.search.p95Ms <= GOALS.searchMs)) missed.push(`search to table: p95 ${Math.round(result.search.p95Ms)} ms > ${GOALS.searchMs} ms after the debounce`);
  return missed;
}

export function markdown(result: WebBenchResult): string {
  const lines: string[] = [];
  lines.push(`### bench:web, ${result.date}`);
  lines.push('');
  lines.push(
    `Commit ${result.commit}; ${result.machine}, load average ${result.load.before.toFixed(1)} before and ${result.load.after.toFixed(1)} after; ${result.chromium}, Lighthouse ${result.lighthouse}; ${result.server}; data: ${result.data}.`,
  );
  lines.push('');
  if (!result.lighthouseRuns.length) lines.push('Lighthouse: not run (BENCH_WEB_FORM_FACTORS was empty).');
  else {
    lines.push(
      `Lighthouse, signed in as backoffice@portail.test (median of ${result.lighthouseRuns[0]?.performanceRuns.length ?? 0} runs by performance score; goals: performance ≥ ${GOALS.performance}, accessibility ${GOALS.accessibility}, best practices ≥ ${GOALS.bestPractices}):`,
    );
    lines.push('');
    lines.push('| page | form factor | performance (runs) | accessibility | best practices | FCP | LCP | TBT | CLS | Speed Index |');
    lines.push('|---|---|---|---|---|---|---|---|---|---|');
  }
  for (const r of result.lighthouseRuns) {
    lines.push(
      `| ${r.page} \`${r.path}\` | ${r.formFactor} | ${ok(r.performance, GOALS.performance)} (${r.performanceRuns.join(', ')}) | ${ok(r.accessibility, GOALS.accessibility)} | ${ok(r.bestPractices, GOALS.bestPractices)} | ${ms(r.metrics.fcpMs)} | ${ms(r.metrics.lcpMs)} | ${ms(r.metrics.tbtMs)} | ${r.metrics.cls.toFixed(3)} | ${ms(r.metrics.speedIndexMs)} |`,
    );
  }
  const findings = result.lighthouseRuns.filter((r) => r.findings.length);
  if (findings.length) {
    lines.push('');
    lines.push('What Lighthouse still points at:');
    for (const r of findings) lines.push(`- ${r.path} (${r.formFactor}): ${r.findings.join('; ')}`);
  }
  const s = result.search;
  lines.push('');
  lines.push(`Search on /utilisateurs, last keystroke to the updated table, minus the ${SEARCH_DEBOUNCE_MS} ms debounce (goal ≤ ${GOALS.searchMs} ms), ${s.samples.length} searches:`);
  lines.push('');
  const opt = (n: number | null) => (n === null ? '—' : ms(n));
  lines.push('| | DOM updated | next frame | of which: debounce end → API call | API call (in the browser) | API answer → DOM |');
  lines.push('|---|---|---|---|---|---|');
  lines.push(`| median | ${ms(s.medianMs)} | ${ms(s.medianFrameMs)} | ${opt(s.medianBeforeApiMs)} | ${opt(s.medianApiMs)} | ${opt(s.medianAfterApiMs)} |`);
  lines.push(`| p95 | ${s.p95Ms <= GOALS.searchMs ? ms(s.p95Ms) : `**${ms(s.p95Ms)}**`} | | | | |`);
  lines.push(`| max | ${ms(s.maxMs)} | | | | |`);
  lines.push('');
  lines.push('| term | DOM updated | next frame | debounce end → API call | API call | API answer → DOM | result |');
  lines.push('|---|---|---|---|---|---|---|');
  for (const x of s.samples) lines.push(`| \`${x.term}\` | ${ms(x.domMs)} | ${ms(x.frameMs)} | ${opt(x.beforeApiMs)} | ${opt(x.apiMs)} | ${opt(x.afterApiMs)} | ${x.summary} |`);
  lines.push('');
  lines.push(`Bundle (gzip): shell ${result.bundle.shellKb.toFixed(1)} kB (budget 200); largest screen ${[...result.bundle.screens].sort((a, b) => b.kb - a.kb)[0]?.src ?? '—'} ${Math.max(0, ...result.bundle.screens.map((x) => x.kb)).toFixed(1)} kB (budget 60).`);
  lines.push('');
  if (result.notes.length) lines.push(`Notes:\n${result.notes.map((n) => `- ${n}`).join('\n')}\n`);
  lines.push(result.goalsMissed.length ? `Goals missed:\n${result.goalsMissed.map((g) => `- ${g}`).join('\n')}` : 'Every goal met.');
  return lines.join('\n');
}
