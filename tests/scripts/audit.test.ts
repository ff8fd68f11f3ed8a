// scripts/audit.ts (npm run audit:prod) judges what `npm audit --omit=dev --json` printed.
// fixtures/npm-audit-endpoint-405.json was recorded on a machine whose registry mirror has no advisory
// service; the reports are in npm 11's format (auditReportVersion 2) with real advisories, written by hand
// since that machine cannot produce one; npm-audit-offline.json is npm's answer without a network.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeVerdict, exitCodeFor, judgeAudit } from '../../scripts/audit.ts';

const fixture = (name: string) => fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', name), 'utf8');

describe('npm run audit:prod', () => {
  it('fails on a high finding and lists the high and critical ones only', () => {
    const verdict = judgeAudit(fixture('npm-audit-high.json'));
    expect(verdict.kind).toBe('failed');
    if (verdict.kind !== 'failed') return;
    expect(verdict.findings.map((f) => [f.name, f.severity])).toEqual([
      ['cross-spawn', 'high'],
      ['execa', 'high'],
    ]);
    expect(exitCodeFor(verdict, false)).toBe(1);
    const lines = describeVerdict(verdict, false);
    expect(lines[0]).toContain('2 high or critical finding(s)');
    expect(lines.join('\n')).toContain('GHSA-3xgq-45jj-v275');
    expect(lines.join('\n')).toContain('through cross-spawn');
    expect(lines.join('\n')).toContain('execa@9.6.0 (major)');
    expect(lines.join('\n')).not.toContain('nanoid');
  });

  it('fails on a critical finding too', () => {
    const report = JSON.parse(fixture('npm-audit-moderate.json'));
    report.vulnerabilities.nanoid.severity = 'critical';
    expect(exitCodeFor(judgeAudit(JSON.stringify(report)), false)).toBe(1);
  });

  it('passes with moderate findings only, and says how many', () => {
    const verdict = judgeAudit(fixture('npm-audit-moderate.json'));
    expect(verdict).toEqual({ kind: 'passed', counts: { info: 0, low: 0, moderate: 1, high: 0, critical: 0, total: 1 } });
    expect(exitCodeFor(verdict, true)).toBe(0);
    expect(describeVerdict(verdict, true)[0]).toContain('no high or critical finding');
    expect(describeVerdict(verdict, true)[0]).toContain('1 moderate');
  });

  it('says the audit was not checked when the advisory endpoint refuses (405) or cannot be reached', () => {
    for (const name of ['npm-audit-endpoint-405.json', 'npm-audit-offline.json']) {
      const verdict = judgeAudit(fixture(name));
      expect(verdict.kind, name).toBe('unchecked');
      expect(describeVerdict(verdict, false)[0], name).toMatch(/could NOT be checked/);
    }
    expect(describeVerdict(judgeAudit(fixture('npm-audit-endpoint-405.json')), false)[0]).toContain('405 Method Not Allowed');
    expect(describeVerdict(judgeAudit(fixture('npm-audit-offline.json')), false)[0]).toContain('ENOTFOUND');
  });

  it('lets an unchecked audit pass unless AUDIT_REQUIRED=true', () => {
    const verdict = judgeAudit(fixture('npm-audit-endpoint-405.json'));
    expect(exitCodeFor(verdict, false)).toBe(0);
    expect(exitCodeFor(verdict, true)).toBe(1);
    expect(describeVerdict(verdict, true)[1]).toContain('failing');
  });

  it('treats output that is not a report as unchecked, never as passed', () => {
    for (const output of ['', 'npm error code E500', '{}', 'null', '{"vulnerabilities": null}']) {
      expect(judgeAudit(output).kind, output).toBe('unchecked');
    }
  });
});
