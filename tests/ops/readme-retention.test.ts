// The README's 'Retention' table is the back office's 'Durées de conservation' for the default settings: the same
// rows (server/features/retention/retention.model.ts, src/features/retention/retention-rows.ts), so they cannot drift.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { retentionItems } from '../../server/features/retention/retention.model.ts';
import { retentionRows } from '../../src/features/retention/retention-rows.ts';
import { frRetention as t } from '../../src/i18n/fr-retention.ts';

const START = '<!-- retention-table:start (written from the code: tests/ops/readme-retention.test.ts) -->';
const END = '<!-- retention-table:end -->';

/** The table for a configuration, as the README writes it. */
function markdownTable(env: Record<string, string>): string {
  const rows = retentionRows(retentionItems(readConfig(env)));
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return [
    `| ${t.columns.what} | ${t.columns.duration} (par défaut) | ${t.columns.setting} | ${t.columns.end} |`,
    '|---|---|---|---|',
    ...rows.map((row) => `| ${cell(row.what)} | ${cell(row.duration)} | ${row.setting ? `\`${row.setting}\`` : cell(row.settingText)} | ${cell(row.end)} |`),
  ].join('\n');
}

describe("README's retention table", () => {
  it("is the back office's table for the default settings", () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    expect(start, `README.md lacks ${START}`).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const written = readme.slice(start + START.length, end).trim();
    expect(written, `README.md's table should read:\n${markdownTable({})}\n`).toBe(markdownTable({}));
  });

  it('follows the settings: another period changes the table', () => {
    expect(markdownTable({ AUDIT_RETENTION_DAYS: '730' })).not.toBe(markdownTable({}));
    expect(markdownTable({ DORMANCY_DELETE_AFTER_DAYS: '0' })).toContain('| Comptes sans connexion : suppression | Désactivé | `DORMANCY_DELETE_AFTER_DAYS` |');
  });
});
