// `npm run bench:web`: what a signed-in person gets in the browser, against the production build served
// by the real server in production mode (https with a certificate made for the run, the local sign-in
// allowed explicitly, LOG_LEVEL=warn):
// - Lighthouse (its Node API, with the system Chromium) on /utilisateurs, /admin and the creation wizard,
//   desktop and mobile presets, BENCH_WEB_RUNS runs each (default 3), median by performance score;
// - the time from the last keystroke of a search on /utilisateurs to the updated table (bench-web-search.ts).
// The server runs on DATABASE_URL when set (e.g. the 1M-user database of `npm run bench:seed`), otherwise
// on a fresh PGlite with the demo data, and says so. Writes bench/results/web-<date>.{json,md} and
// bench/results/web-latest.{json,md}; prints the tables. Exit code: 1 when something could not be
// measured, 3 when a goal is missed, 0 otherwise.
//
// Signed in how: Playwright signs in through the local provider in a Chromium started with a persistent
// profile and a remote-debugging port; Lighthouse then drives that same browser through the port, so its
// tab has the session (token cookie, MSAL's localStorage). Lighthouse's storage reset is off (it would sign
// the person out); the HTTP cache is emptied before each run instead, so every run is a cold load.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { webSearchTerms } from '../bench/search-sample.ts';
import { freePort, startServer, type ServerProcess } from '../bench/server-process.ts';
import { loadTls } from '../server/tls.ts';
import type { ServerConfig } from '../server/config.ts';
import { measureSearch } from './bench-web-search.ts';
import { goalsMissed, markdown, quantile, type LighthouseRun, type WebBenchResult } from './bench-web-report.ts';
import { analyseBuild } from './web-bundle.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const RUNS = Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? 3) || 3);
// Empty: the search latency only (the report says Lighthouse was not run).
const FORM_FACTORS = (process.env.BENCH_WEB_FORM_FACTORS ?? 'desktop,mobile').split(',').filter(Boolean).map((f) => {
  if (f !== 'desktop' && f !== 'mobile') throw new Error(`BENCH_WEB_FORM_FACTORS: 'desktop' and/or 'mobile', not '${f}'`);
  return f;
});
const PAGES = [
  { page: 'Users list', path: '/utilisateurs' },
  { page: 'Administrator requests', path: '/admin' },
  { page: 'Creation wizard', path: '/utilisateurs/creer' },
] as const;
// Searches typed: a sample spread over the kinds of npm run bench:search's terms (bench/search-sample.ts).
const SEARCH_SAMPLE = 20;
const ACCOUNT = { email: 'backoffice@portail.test', password: 'Demo-Portail-2026' };

function log(message: string) {
  console.log(`bench:web  ${message}`);
}

function build(outDir: string): void {
  log(`building the SPA into ${path.relative(ROOT, outDir)} (vite build)`);
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
}

/** The SPKI hash Chromium is told to trust (--ignore-certificate-errors-spki-list): the certificate counts as valid, not as an error ignored. */
function spkiHash(certPem: string): string {
  const spki = new crypto.X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return crypto.createHash('sha256').update(spki).digest('base64');
}

/** The server in production mode on the certificate Chromium trusts, with the local sign-in and the demo seed. */
function startPortal(options: { port: number; dataDir: string; webRoot: string; certFile: string; keyFile: string; databaseUrl: string | null }): Promise<ServerProcess> {
  const origin = `https://localhost:${options.port}`;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: 'localhost',
    PORT: String(options.port),
    PUBLIC_ORIGIN: origin,
    TLS_CERT_FILE: options.certFile,
    TLS_KEY_FILE: options.keyFile,
    DATA_DIR: options.dataDir,
    WEB_ROOT: options.webRoot,
    IDENTITY_PROVIDER: 'local',
    ALLOW_LOCAL_IDENTITY_PROVIDER: 'true',
    SEED_DEMO_DATA: 'true',
    MEMBER_AREA_URL: 'https://adherent.example.org/',
    SUPPORT_HOURS: 'de 9 h à 17 h',
    SUPPORT_PHONE: '01 99 00 12 34',
    SUPPORT_EMAIL: 'relation.adherents@example.org',
    LOG_LEVEL: 'warn',
    // The dormancy warnings' backlog of the 1M database would be written during the runs (bench/server-env.ts).
    DORMANCY_WARN_AFTER_DAYS: '0',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  };
  const logFile = path.join(options.dataDir, 'server.log');
  return startServer({ env, port: options.port, root: ROOT, logFile, origin, ca: fs.readFileSync(options.certFile), readyTimeoutMs: 180_000 });
}

async function signIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/authentication/sign-in`);
  await page.waitForURL(/\/oidc\/interaction\//, { timeout: 30_000 });
  await page.getByLabel('Adresse email').fill(ACCOUNT.email);
  await page.getByLabel('Mot de passe').fill(ACCOUNT.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL('**/dashboard', { timeout: 30_000 });
  await page.getByRole('heading', { name: 'Accueil', level: 1 }).waitFor();
}

const score = (lhr: Result, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const numeric = (lhr: Result, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;

/** What lost points: accessibility and best-practices audits below 1, performance opportunities of 100 ms or more. */
function findings(lhr: Result): string[] {
  const out: string[] = [];
  for (const category of ['accessibility', 'best-practices']) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) out.push(`${category}: ${audit.title}`);
    }
  }
  for (const audit of Object.values(lhr.audits)) {
    const savings = (audit.details as { overallSavingsMs?: number } | undefined)?.overallSavingsMs ?? 0;
    if (audit.score !== null && audit.score < 0.9 && savings >= 100) out.push(`performance: ${audit.title} (~${Math.round(savings)} ms)`);
  }
  return out;
}

async function runLighthouse(
  context: BrowserContext,
  debugPort: number,
  origin: string,
  formFactor: 'desktop' | 'mobile',
  target: (typeof PAGES)[number],
  reportsDir: string,
  notes: string[],
): Promise<LighthouseRun> {
  const runs: Result[] = [];
  const name = (i: number) => `${target.path.slice(1).replaceAll('/', '_')}-${formFactor}-${i + 1}`;
  for (let i = 0, lost = 0; i < RUNS; i++) {
    // A cold load each time, but still signed in: empty the HTTP cache, keep cookies and storage.
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    const flags: Flags = { port: debugPort, output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: ['performance', 'accessibility', 'best-practices'] };
    const answer = await lighthouse(`${origin}${target.path}`, flags, formFactor === 'desktop' ? desktopConfig : undefined);
    if (!answer) throw new Error(`Lighthouse gave no result for ${target.path}`);
    const lhr = answer.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${target.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    // Lighthouse must have audited the screen, not the sign-in page: the final URL tells.
    const finalUrl = lhr.finalDisplayedUrl ?? '';
    if (!finalUrl.startsWith(`${origin}${target.path}`)) {
      fs.writeFileSync(path.join(reportsDir, `${name(i)}-session-lost.json`), JSON.stringify(lhr));
      const failed = ((lhr.audits['network-requests']?.details as { items?: { url: string; statusCode: number }[] } | undefined)?.items ?? [])
        .filter((r) => r.statusCode >= 400 || r.statusCode <= 0)
        .map((r) => `${r.statusCode} ${r.url.replace(origin, '')}`);
      const problem = `Lighthouse ended on ${finalUrl.replace(origin, '')} instead of ${target.path}: the session was lost (failed requests: ${failed.join(', ') || 'none'})`;
      // Once per page and form factor: sign in again and repeat the run, saying so; twice is a failure.
      if (lost++) throw new Error(problem);
      log(`  ${problem}; signing in again and repeating run ${i + 1}`);
      notes.push(`${target.path} (${formFactor}) run ${i + 1}: ${problem}; repeated after signing in again`);
      await page.goto(`${origin}/dashboard`);
      await page.waitForLoadState('networkidle');
      if (!page.url().endsWith('/dashboard')) await signIn(page, origin);
      await page.goto('about:blank');
      i--;
      continue;
    }
    runs.push(lhr);
    fs.writeFileSync(path.join(reportsDir, `${name(i)}.json`), JSON.stringify(lhr));
    log(`  ${target.path} ${formFactor} run ${i + 1}/${RUNS}: performance ${score(lhr, 'performance')}, accessibility ${score(lhr, 'accessibility')}, best practices ${score(lhr, 'best-practices')}`);
  }
  const byPerformance = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance'));
  const median = byPerformance[Math.floor((byPerformance.length - 1) / 2)]!;
  return {
    page: target.page,
    path: target.path,
    formFactor,
    performance: score(median, 'performance'),
    accessibility: score(median, 'accessibility'),
    bestPractices: score(median, 'best-practices'),
    performanceRuns: runs.map((r) => score(r, 'performance')),
    metrics: {
      fcpMs: numeric(median, 'first-contentful-paint'),
      lcpMs: numeric(median, 'largest-contentful-paint'),
      tbtMs: numeric(median, 'total-blocking-time'),
      cls: numeric(median, 'cumulative-layout-shift'),
      speedIndexMs: numeric(median, 'speed-index'),
    },
    findings: [...new Set(runs.flatMap(findings))],
  };
}

function describeMachine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.versions.node}`;
}

function gitCommit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim() ? ' (with local changes)' : '';
    return `${sha}${dirty}`;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  const databaseUrl = process.env.DATABASE_URL ?? null;
  const dataLabel = databaseUrl
    ? `PostgreSQL at ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname} (DATABASE_URL)`
    : 'the demo data on a fresh PGlite (no DATABASE_URL: NOT the 1M-user database)';
  log(`data: ${dataLabel}`);
  const work = path.join(ROOT, '.data', 'bench-web');
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const webRoot = process.env.BENCH_WEB_ROOT ? path.resolve(process.env.BENCH_WEB_ROOT) : path.join(ROOT, 'dist-bench-web');
  if (!process.env.BENCH_WEB_ROOT) build(webRoot);
  const bundle = analyseBuild(webRoot);

  const dataDir = path.join(work, 'server');
  const tls = await loadTls({ tls: { mode: 'self-signed' }, dataDir } as ServerConfig);
  const certFile = path.join(dataDir, 'tls', 'localhost.crt');
  const keyFile = path.join(dataDir, 'tls', 'localhost.key');
  const port = Number(process.env.BENCH_WEB_PORT ?? (await freePort()));
  log(`starting the server (production mode) on https://localhost:${port}`);
  const server = await startPortal({ port, dataDir, webRoot, certFile, keyFile, databaseUrl });
  const debugPort = await freePort();
  let context: BrowserContext | null = null;
  try {
    context = await chromium.launchPersistentContext(path.join(work, 'profile'), {
      executablePath: CHROMIUM,
      headless: false,
      args: [...CHROMIUM_FLAGS, `--remote-debugging-port=${debugPort}`, `--ignore-certificate-errors-spki-list=${spkiHash(tls!.cert)}`],
      locale: 'fr-FR',
      timezoneId: 'Europe/Paris',
      viewport: { width: 1350, height: 940 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    log(`signing in as ${ACCOUNT.email} through the local provider`);
    await signIn(page, server.origin);
    const chromiumVersion = `Chromium ${context.browser()?.version() ?? execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).trim()}`;

    const searchTerms = (await webSearchTerms(databaseUrl, SEARCH_SAMPLE)).map((t) => t.term);
    log(`search latency on /utilisateurs (${searchTerms.length} searches: ${searchTerms.map((t) => `'${t}'`).join(', ')})`);
    const samples = await measureSearch(page, server.origin, searchTerms);
    await page.goto('about:blank');

    const lighthouseRuns: LighthouseRun[] = [];
    const notes: string[] = [];
    // Every Lighthouse report, to open in the Lighthouse viewer (https://googlechrome.github.io/lighthouse/viewer/).
    const reportsDir = path.join(work, 'lighthouse');
    fs.mkdirSync(reportsDir, { recursive: true });
    for (const formFactor of FORM_FACTORS) {
      for (const target of PAGES) {
        log(`Lighthouse ${formFactor} ${target.path}`);
        lighthouseRuns.push(await runLighthouse(context, debugPort, server.origin, formFactor, target, reportsDir, notes));
      }
    }

    const domMs = samples.map((s) => s.domMs);
    const known = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
    const medianOf = (values: (number | null)[]) => (known(values).length ? quantile(known(values), 0.5) : null);
    const partial = {
      lighthouseRuns,
      search: {
        samples,
        medianMs: quantile(domMs, 0.5),
        p95Ms: quantile(domMs, 0.95),
        maxMs: Math.max(...domMs),
        medianFrameMs: quantile(samples.map((s) => s.frameMs), 0.5),
        medianApiMs: medianOf(samples.map((s) => s.apiMs)),
        medianBeforeApiMs: medianOf(samples.map((s) => s.beforeApiMs)),
        medianAfterApiMs: medianOf(samples.map((s) => s.afterApiMs)),
      },
    };
    const result: WebBenchResult = {
      date: new Date().toISOString(),
      commit: gitCommit(),
      machine: describeMachine(),
      load: { before: loadBefore, after: os.loadavg()[0]! },
      chromium: chromiumVersion,
      lighthouse: JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')).version as string,
      data: dataLabel,
      server: 'server/main.ts in production mode (https, HTTP/2 with HTTP/1.1 allowed), the build of this commit',
      ...partial,
      notes,
      bundle: { shellKb: bundle.shell.gzip / 1000, screens: bundle.screens.map((s) => ({ src: s.src, kb: s.gzip / 1000 })) },
      goalsMissed: goalsMissed(partial),
    };
    const text = markdown(result);
    const resultsDir = path.join(ROOT, 'bench', 'results');
    fs.mkdirSync(resultsDir, { recursive: true });
    const stamp = result.date.slice(0, 16).replace(/:/g, '-');
    for (const name of [`web-${stamp}`, 'web-latest']) {
      fs.writeFileSync(path.join(resultsDir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
      fs.writeFileSync(path.join(resultsDir, `${name}.md`), `${text}\n`);
    }
    console.log(`\n${text}\n`);
    log(`written: bench/results/web-${stamp}.{json,md} and bench/results/web-latest.{json,md}`);
    if (result.goalsMissed.length) process.exitCode = 3;
  } finally {
    await context?.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:web failed: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
});
