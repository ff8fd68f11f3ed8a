// `npm run audit:prod`: the production dependencies (npm audit --omit=dev) have no high or critical advisory.
// Exit 1 on such a finding, listing them. When the advisory service cannot be reached (a registry mirror
// without it answers 405 here), says plainly that nothing was checked: exit 0, or 1 with AUDIT_REQUIRED=true.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export type Severity = 'info' | 'low' | 'moderate' | 'high' | 'critical';

export interface Finding {
  name: string;
  severity: Severity;
  range: string;
  /** The advisories' titles and addresses, or the vulnerable dependencies it comes through. */
  via: string[];
  fix: string;
}

export type AuditVerdict =
  | { kind: 'passed'; counts: Partial<Record<Severity, number>> }
  | { kind: 'failed'; findings: Finding[] }
  | { kind: 'unchecked'; reason: string };

const BLOCKING: ReadonlySet<string> = new Set(['high', 'critical']);

interface Vulnerability {
  name?: string;
  severity?: string;
  range?: string;
  via?: (string | { title?: string; url?: string; name?: string })[];
  fixAvailable?: boolean | { name?: string; version?: string; isSemVerMajor?: boolean };
}

/** What `npm audit --json` printed means: a report (passed or failed) or no report at all (unchecked). */
export function judgeAudit(output: string): AuditVerdict {
  let report: { vulnerabilities?: Record<string, Vulnerability>; metadata?: { vulnerabilities?: Partial<Record<Severity, number>> }; error?: { code?: string; summary?: string }; message?: string; statusCode?: number };
  try {
    report = JSON.parse(output) as typeof report;
  } catch {
    return { kind: 'unchecked', reason: `npm audit printed no JSON report (${output.trim().slice(0, 200) || 'nothing'})` };
  }
  if (report === null || typeof report !== 'object' || report.error || !report.vulnerabilities || typeof report.vulnerabilities !== 'object') {
    const reason = report?.message || report?.error?.summary || report?.error?.code || (report?.statusCode ? `HTTP ${report.statusCode}` : 'an answer without a report');
    return { kind: 'unchecked', reason: `the advisory service gave no report: ${reason}` };
  }
  const findings = Object.entries(report.vulnerabilities)
    .filter(([, v]) => BLOCKING.has(String(v.severity)))
    .map(([name, v]): Finding => ({
      name: v.name ?? name,
      severity: v.severity as Severity,
      range: v.range ?? '',
      via: (v.via ?? []).map((via) => (typeof via === 'string' ? `through ${via}` : `${via.title ?? via.name ?? 'advisory'} ${via.url ?? ''}`.trim())),
      fix: v.fixAvailable === true ? 'npm audit fix' : v.fixAvailable ? `${v.fixAvailable.name}@${v.fixAvailable.version}${v.fixAvailable.isSemVerMajor ? ' (major)' : ''}` : 'no fix available',
    }));
  return findings.length ? { kind: 'failed', findings } : { kind: 'passed', counts: report.metadata?.vulnerabilities ?? {} };
}

export function exitCodeFor(verdict: AuditVerdict, auditRequired: boolean): number {
  if (verdict.kind === 'failed') return 1;
  return verdict.kind === 'unchecked' && auditRequired ? 1 : 0;
}

/** The lines to print for a verdict. */
export function describeVerdict(verdict: AuditVerdict, auditRequired: boolean): string[] {
  switch (verdict.kind) {
    case 'failed':
      return [
        `npm audit --omit=dev: ${verdict.findings.length} high or critical finding(s) in the production dependencies:`,
        ...verdict.findings.map((f) => `  ${f.severity.toUpperCase()} ${f.name} ${f.range}: ${f.via.join('; ')} (fix: ${f.fix})`),
      ];
    case 'passed': {
      const others = Object.entries(verdict.counts).filter(([, n]) => n).map(([severity, n]) => `${n} ${severity}`);
      return [`npm audit --omit=dev: no high or critical finding in the production dependencies${others.length ? ` (others: ${others.join(', ')})` : ''}.`];
    }
    case 'unchecked':
      return [
        `npm audit --omit=dev could NOT be checked: ${verdict.reason}.`,
        auditRequired ? 'AUDIT_REQUIRED=true: failing.' : 'The audit is not required here (AUDIT_REQUIRED is not true): passing without a check.',
      ];
  }
}

function main(): void {
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  // npm exits 1 both when it finds something and when it cannot ask: the printed JSON tells them apart.
  const verdict: AuditVerdict = run.error ? { kind: 'unchecked', reason: `npm could not run (${run.error.message})` } : judgeAudit(run.stdout);
  const auditRequired = process.env.AUDIT_REQUIRED === 'true';
  const lines = describeVerdict(verdict, auditRequired);
  const code = exitCodeFor(verdict, auditRequired);
  for (const line of lines) (code === 0 && verdict.kind === 'passed' ? console.log : console.error)(line);
  process.exitCode = code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
