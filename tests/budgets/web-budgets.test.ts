import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseBuild, budgetFailures, BUDGETS, formatReport, KB, type Manifest } from '../../scripts/web-bundle';

// Runs after `npm run build` (npm run test:budgets, in npm test's chain): it reads dist/ (or WEB_ROOT).
const dir = path.resolve(process.env.WEB_ROOT ?? 'dist');
// For showing that the check bites: WEB_BUDGET_SHELL_KB / WEB_BUDGET_SCREEN_KB may lower a budget, never raise it.
const lowered = (name: string, budget: number) => Math.min(budget, Number(process.env[name] ?? budget) || budget);
const budgets = { shellKb: lowered('WEB_BUDGET_SHELL_KB', BUDGETS.shellKb), screenKb: lowered('WEB_BUDGET_SCREEN_KB', BUDGETS.screenKb) };

describe(`browser budgets of the production build in ${path.relative(process.cwd(), dir) || '.'}`, () => {
  const report = analyseBuild(dir);
  const text = formatReport(report, budgets);
  console.log(text);
  const failures = budgetFailures(report, budgets);
  const about = (pattern: RegExp) => failures.filter((f) => pattern.test(f));

  it(`keeps the JavaScript of the sign-in routes and the shell with /dashboard within ${budgets.shellKb} kB gzipped`, () => {
    expect(report.shell.chunks.length).toBeGreaterThan(0);
    expect(about(/^shell:/), text).toEqual([]);
  });

  it(`keeps each other screen's own JavaScript within ${budgets.screenKb} kB gzipped`, () => {
    expect(report.screens.map((s) => s.src)).toEqual(expect.arrayContaining(['src/routes/users.lazy.tsx', 'src/routes/admin.lazy.tsx', 'src/routes/user-create.lazy.tsx']));
    expect(about(/^src\//), text).toEqual([]);
  });

  it('loads Mermaid (and ELK, D3, Cytoscape) from /workflows only', () => {
    expect(report.mermaid.fromWorkflows.length, 'the detection must see Mermaid under /workflows').toBeGreaterThan(0);
    expect(about(/Mermaid/), text).toEqual([]);
  });
});

/** A fake build: a manifest, and one file (with its source map) per chunk. */
function fakeBuild(chunks: Record<string, { sources: string[]; bytes?: number } & Omit<Manifest[string], 'file'>>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'web-budgets-'));
  fs.mkdirSync(path.join(root, '.vite'));
  fs.mkdirSync(path.join(root, 'assets'));
  const manifest: Manifest = {};
  let n = 0;
  for (const [key, { sources, bytes = 100, ...chunk }] of Object.entries(chunks)) {
    const file = `assets/chunk-${n++}.js`;
    // Random bytes do not compress: the gzipped size stays within a few bytes of `bytes`.
    fs.writeFileSync(path.join(root, file), crypto.randomBytes(bytes));
    fs.writeFileSync(path.join(root, `${file}.map`), JSON.stringify({ version: 3, sources, mappings: '' }));
    manifest[key] = { file, ...chunk };
  }
  fs.writeFileSync(path.join(root, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return root;
}

describe('the budget check itself', () => {
  const build = fakeBuild({
    'index.html': { isEntry: true, sources: ['../src/main.tsx'], bytes: 5000, imports: ['_shared.js'], dynamicImports: ['src/routes/users.lazy.tsx', 'src/routes/workflows.lazy.tsx'] },
    '_shared.js': { sources: ['../node_modules/react-dom/index.js'], bytes: 3000 },
    'src/routes/users.lazy.tsx': { isDynamicEntry: true, sources: ['../src/routes/users.lazy.tsx'], bytes: 2000, imports: ['index.html', '_table.js'] },
    '_table.js': { sources: ['../src/ui/table.tsx'], bytes: 1500 },
    'src/routes/workflows.lazy.tsx': { isDynamicEntry: true, sources: ['../src/routes/workflows.lazy.tsx'], bytes: 1000, imports: ['index.html'], dynamicImports: ['_mermaid.js'] },
    '_mermaid.js': { isDynamicEntry: true, sources: ['../node_modules/mermaid/dist/mermaid.core.mjs', '../node_modules/d3-shape/src/line.js'], bytes: 9000 },
  });

  it('counts the entry and its static imports as the shell, and a screen without what the shell has', () => {
    const report = analyseBuild(build);
    expect(report.shell.chunks).toHaveLength(2);
    expect(report.shell.gzip).toBeGreaterThan(8000);
    const users = report.screens.find((s) => s.src === 'src/routes/users.lazy.tsx')!;
    expect(users.chunks).toHaveLength(2);
    expect(users.gzip).toBeGreaterThan(3500);
    expect(users.gzip).toBeLessThan(5 * KB);
    expect(budgetFailures(report)).toEqual([]);
  });

  it('fails when the shell or a screen exceeds a lowered budget, naming it', () => {
    const failures = budgetFailures(analyseBuild(build), { shellKb: 5, screenKb: 3 });
    expect(failures).toEqual([expect.stringMatching(/^shell: \d+\.\d kB > 5 kB$/), expect.stringMatching(/^src\/routes\/users\.lazy\.tsx: \d+\.\d kB > 3 kB$/)]);
  });

  it('fails when Mermaid code is reachable from another screen', () => {
    const leaking = fakeBuild({
      'index.html': { isEntry: true, sources: ['../src/main.tsx'], dynamicImports: ['src/routes/users.lazy.tsx', 'src/routes/workflows.lazy.tsx'] },
      'src/routes/users.lazy.tsx': { isDynamicEntry: true, sources: ['../src/routes/users.lazy.tsx'], imports: ['_d3.js'] },
      '_d3.js': { sources: ['../node_modules/d3-scale/src/linear.js'] },
      'src/routes/workflows.lazy.tsx': { isDynamicEntry: true, sources: ['../src/routes/workflows.lazy.tsx'], dynamicImports: ['_mermaid.js'] },
      '_mermaid.js': { isDynamicEntry: true, sources: ['../node_modules/mermaid/dist/mermaid.core.mjs'] },
    });
    expect(budgetFailures(analyseBuild(leaking))).toEqual([expect.stringMatching(/^Mermaid code outside \/workflows: assets\/chunk-\d\.js \(d3-scale\) reachable from index\.html$/)]);
  });

  it('fails when it no longer sees Mermaid under /workflows at all', () => {
    const blind = fakeBuild({
      'index.html': { isEntry: true, sources: ['../src/main.tsx'], dynamicImports: ['src/routes/workflows.lazy.tsx'] },
      'src/routes/workflows.lazy.tsx': { isDynamicEntry: true, sources: ['../src/routes/workflows.lazy.tsx'] },
    });
    expect(budgetFailures(analyseBuild(blind))).toEqual([expect.stringMatching(/no Mermaid chunk is reachable/)]);
  });

  it('stops with a clear message when there is no build', () => {
    expect(() => analyseBuild(path.join(os.tmpdir(), 'no-such-build'))).toThrow(/No Vite manifest .*build first/);
  });
});
