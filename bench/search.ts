// npm run bench:search [-- --sizes 10k,100k,1m] [--duration 10] [--connections 32] [--seed 20] [--reseed] [--force]
// The users search at every term (issue 20). For each database: at least 200 terms drawn from its own vocabulary
// (search-terms.ts); a freshly started server (production mode, as npm run bench starts it); the unfiltered page 1
// timed 7 times on one connection (the baseline); each term's first request alone; the combinations of a few terms
// with filters, sorts, directions and pages, each first request alone; the mix of every term under load; each
// term's total against a count of every user's name and e-mail made here. Writes bench/results/search-latest.{md,json}.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { parseBenchArgs } from './args.ts';
import { sizeLabel } from './dataset.ts';
import { prepareDatabases, type BenchTarget } from './databases.ts';
import { runLoad, WARM_UP_SECONDS } from './load.ts';
import { databaseName } from './names.ts';
import { BACK_OFFICE, ORGANIZATION_ADMIN } from './scenarios.ts';
import { checkedNoMatch, expectedTotals, pickFilters, readVocabulary, type SearchFilters } from './search-data.ts';
import { consoleSearchReport, markdownSearchReport, median, type ComboResult, type SearchReport, type SearchSizeRun, type TermResult } from './search-report.ts';
import { buildTerms, DEFAULT_SEED, fragmentWeights, sampleTerms, TERM_QUOTAS, type SearchTerm, type Vocabulary } from './search-terms.ts';
import { freePort, startServer } from './server-process.ts';
import { pendingBackfills, readBackfills } from './backfills.ts';
import { BENCH_POOL_SIZE, serverEnv, tokenSigner } from './server-env.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORK = path.join(ROOT, 'bench', '.work');
const RESULTS = path.join(ROOT, 'bench', 'results');
const PAGE_SIZE = 10;
/** The SPA's default request for /utilisateurs (src/lib/list-queries.ts, src/routes/users.tsx): every user, by name, 10 a page. */
const LIST = `includeInactive=true&sort=name&order=asc&page=1&pageSize=${PAGE_SIZE}`;
const BASELINE_TIMES = 7;
/** A result with more pages than this is also read at its last page. */
const DEEP_FROM_PAGES = 20;
const SORTS = ['name', 'email', 'lastLogin'] as const;
const ORDERS = ['asc', 'desc'] as const;

const say = (line: string) => console.log(`[bench:search] ${line}`);
const usersPath = (query: string) => `/api/v2/users?${query}`;
const termPath = (term: string) => usersPath(`${LIST}&search=${encodeURIComponent(term)}`);

/** One GET on the connection of `agent`, timed from the request to the end of the answer. */
function timedGet(origin: string, requestPath: string, token: string, agent: http.Agent): Promise<{ ms: number; status: number; total: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(`${origin}${requestPath}`, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const ms = performance.now() - started;
        let total = Number.NaN;
        try {
          total = Number((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { total?: number }).total ?? Number.NaN);
        } catch {
          // not JSON: an error page
        }
        resolve({ ms, status: response.statusCode ?? 0, total });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.setTimeout(120_000, () => request.destroy(new Error(`${requestPath}: no answer in 120 s`)));
  });
}

/** Searches of warm-up terms with each filter of the combinations (and as the organization administrator), unmeasured. */
const FILTER_WARM_UP = 3;

/** Searches answered before the measured ones, unmeasured: terms of every kind drawn with another seed, none measured nor combined. */
const WARM_UP_SEARCHES = 20;
function warmUpTerms(vocabulary: Vocabulary, measured: readonly SearchTerm[], seed: number): SearchTerm[] {
  const used = new Set(measured.map((t) => t.term.toLowerCase()));
  const others = buildTerms(vocabulary, [], seed + 1).filter((t) => !used.has(t.term.toLowerCase()));
  return sampleTerms(others, WARM_UP_SEARCHES, seed + 1);
}

/** The combinations' terms, none of them among the measured terms (their first requests must be first): a common surname, a 2-letter fragment, a rare surname, a no-match term. */
function comboTerms(vocabulary: Vocabulary, terms: readonly SearchTerm[], spareNoMatch: readonly string[]): SearchTerm[] {
  const used = new Set(terms.map((t) => t.term.toLowerCase()));
  const free = (values: string[]) => values.find((v) => !used.has(v.toLowerCase()));
  const surnames = vocabulary.lastNames.map((c) => c.value);
  const pairs = fragmentWeights(vocabulary, 2).sort((a, b) => b.count - a.count).map((c) => c.value);
  const rare = [...vocabulary.lastNames].sort((a, b) => a.count - b.count || (a.value < b.value ? -1 : 1)).map((c) => c.value);
  const picked: (SearchTerm | null)[] = [
    free(surnames) ? { term: free(surnames)!, kind: 'surname' } : null,
    free(pairs) ? { term: free(pairs)!, kind: 'fragment-2' } : null,
    free(rare) ? { term: free(rare)!, kind: 'surname' } : null,
    free([...spareNoMatch]) ? { term: free([...spareNoMatch])!, kind: 'no-match' } : null,
  ];
  return picked.filter((t): t is SearchTerm => t !== null);
}

async function benchSize(target: BenchTarget, options: { seed: number; connections: number; duration: number }): Promise<SearchSizeRun> {
  const started = performance.now();
  const label = sizeLabel(target.users);
  const loadBefore = os.loadavg();
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  let vocabulary: Vocabulary;
  let terms: SearchTerm[];
  let combos: SearchTerm[];
  let warmUp: SearchTerm[];
  let expected: { folded: number[]; caseOnly: number[] };
  let filters: SearchFilters;
  try {
    // As npm run bench: the server's jobs would otherwise rewrite the database during the measures (and a search not
    // through its backfills is found another way).
    const pending = pendingBackfills(await readBackfills(client));
    if (pending.length > 0) throw new Error(`${databaseName(target.url)}: backfills not through, which the server's jobs would run during the measures: ${pending.join('; ')}`);
    say(`${label}: reading the vocabulary of ${databaseName(target.url)}`);
    vocabulary = await readVocabulary(client);
    const noMatch = await checkedNoMatch(client, vocabulary, TERM_QUOTAS['no-match'] + 1, options.seed);
    // Measured with the kinds in turn: no kind gets the cold start or the warmed end of the run.
    const drawn = buildTerms(vocabulary, noMatch.slice(0, TERM_QUOTAS['no-match']), options.seed);
    terms = sampleTerms(drawn, drawn.length, options.seed);
    combos = comboTerms(vocabulary, terms, noMatch.slice(TERM_QUOTAS['no-match']));
    warmUp = warmUpTerms(vocabulary, [...terms, ...combos], options.seed);
    say(`${label}: ${terms.length} terms; counting their matches over every user (case and accents ignored)`);
    expected = await expectedTotals(client, terms.map((t) => t.term), { activeOnly: false });
    filters = await pickFilters(client);
  } finally {
    await client.end();
  }

  const dataDir = path.join(WORK, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const sign = await tokenSigner(dataDir, origin);
  const tokens = new Map<string, string>();
  const lookup = new pg.Client({ connectionString: target.url });
  await lookup.connect();
  try {
    for (const email of [BACK_OFFICE, ORGANIZATION_ADMIN]) {
      const subject = (await lookup.query('select auth_id from users where email = $1', [email])).rows[0]?.auth_id as string | undefined;
      if (!subject) throw new Error(`${email} is missing from ${databaseName(target.url)}: seed it again`);
      tokens.set(email, await sign(subject, email));
    }
  } finally {
    await lookup.end();
  }
  const staff = tokens.get(BACK_OFFICE)!;

  say(`${label}: starting the server (production mode, pool of ${BENCH_POOL_SIZE})`);
  const server = await startServer({ env: serverEnv({ databaseUrl: target.url, port, dataDir, poolSize: BENCH_POOL_SIZE }), port, logFile: path.join(WORK, `server-search-${label}.log`), root: ROOT });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // Phase A: the baseline, then each term's first request, one at a time.
    const baselineSamples: number[] = [];
    for (let i = 0; i < BASELINE_TIMES; i += 1) baselineSamples.push((await timedGet(origin, usersPath(LIST), staff, agent)).ms);
    const baselineMs = median(baselineSamples);
    say(`${label}: unfiltered page 1 ${baselineMs.toFixed(2)} ms (median of ${BASELINE_TIMES})`);
    // Searches of other terms first, unmeasured: a fresh process's first searches compile their code and prepare their
    // statements on the connection; what is measured is a term the process has not seen, not a process that has seen none.
    for (const { term } of warmUp) await timedGet(origin, termPath(term), staff, agent);
    const termResults: TermResult[] = [];
    for (const [i, { term, kind }] of terms.entries()) {
      const answer = await timedGet(origin, termPath(term), staff, agent);
      termResults.push({ term, kind, ms: answer.ms, status: answer.status, total: answer.total, expected: expected.folded[i]!, caseOnly: expected.caseOnly[i]! });
      if (answer.ms > 5 * baselineMs || answer.status !== 200) say(`${label}:   ${kind} '${term}' ${answer.ms.toFixed(0)} ms, total ${answer.total} (HTTP ${answer.status})`);
    }

    // Phase B: the combinations, each first request alone.
    const comboResults: ComboResult[] = [];
    const filterSets: { name: string; query: string; token: string }[] = [
      { name: 'none', query: '', token: staff },
      { name: 'SIREN', query: `&organizationId=${filters.siren.id}`, token: staff },
      { name: 'SIRET', query: `&organizationId=${filters.siret.id}`, token: staff },
      { name: `role ${filters.role}`, query: `&roleCode=${filters.role}`, token: staff },
      { name: 'organization admin', query: '', token: tokens.get(ORGANIZATION_ADMIN)! },
    ];
    say(`${label}: combinations of ${combos.map((c) => `'${c.term}'`).join(', ')} × ${filterSets.length} filters × ${SORTS.length} sorts × 2 directions`);
    // As for the terms alone: each filter's (and the organization administrator's) first searches with warm-up terms,
    // unmeasured, so that a combination's first request measures a term the process has not seen with that filter, not
    // the first search of that caller or filter (its statements prepared on the connection, its session read).
    for (const filter of filterSets) {
      for (const { term } of warmUp.slice(0, FILTER_WARM_UP)) await timedGet(origin, usersPath(`includeInactive=true&sort=name&order=asc&pageSize=${PAGE_SIZE}&search=${encodeURIComponent(term)}${filter.query}&page=1`), filter.token, agent);
    }
    for (const combo of combos) {
      for (const filter of filterSets) {
        let first = true;
        for (const sort of SORTS) {
          for (const order of ORDERS) {
            const base = `includeInactive=true&sort=${sort}&order=${order}&pageSize=${PAGE_SIZE}&search=${encodeURIComponent(combo.term)}${filter.query}`;
            const one = await timedGet(origin, usersPath(`${base}&page=1`), filter.token, agent);
            comboResults.push({ term: combo.term, kind: combo.kind, filter: filter.name, sort, order, page: 1, firstOfFilter: first, ms: one.ms, status: one.status, total: one.total });
            first = false;
            const pages = Math.ceil(one.total / PAGE_SIZE);
            if (pages > DEEP_FROM_PAGES) {
              const deep = await timedGet(origin, usersPath(`${base}&page=${pages}`), filter.token, agent);
              comboResults.push({ term: combo.term, kind: combo.kind, filter: filter.name, sort, order, page: pages, firstOfFilter: false, ms: deep.ms, status: deep.status, total: deep.total });
            }
          }
        }
      }
    }

    // Phase C: every term in turn under load.
    say(`${label}: the mix of ${terms.length} terms, ${options.connections} connections, ${options.duration} s`);
    // After the same warm-up as npm run bench's scenarios (unmeasured): phases A and B used one connection of the pool.
    const variants = terms.map((t) => ({ method: 'GET' as const, path: termPath(t.term) }));
    await runLoad({ url: origin, connections: options.connections, duration: WARM_UP_SECONDS, token: staff, variants });
    const mix = await runLoad({ url: origin, connections: options.connections, duration: options.duration, token: staff, variants });
    say(`${label}: mix p50 ${mix.p50.toFixed(1)} p95 ${mix.p95.toFixed(1)} p99 ${mix.p99.toFixed(1)} ms, ${Math.round(mix.rps)} req/s, ${mix.errors} errors`);
    return {
      users: target.users,
      label,
      database: databaseName(target.url),
      baselineSamples,
      baselineMs,
      filters: { siren: filters.siren.code, siret: filters.siret.code, role: filters.role, organizationAdmin: ORGANIZATION_ADMIN },
      warmUpSearches: warmUp.length,
      filterWarmUpSearches: FILTER_WARM_UP,
      terms: termResults,
      combos: comboResults,
      mix: { ...mix, connections: options.connections, duration: options.duration, warmUp: WARM_UP_SECONDS, terms: terms.length },
      load: { before: loadBefore, after: os.loadavg() },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

function describeMachine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GB`;
}

function gitCommit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'server', 'migrations'], { cwd: ROOT, encoding: 'utf8' }).trim() ? ' (server with local changes)' : '';
    return `${sha}${dirty}`;
  } catch {
    return 'unknown';
  }
}

/** bench's arguments, and --seed (the terms' draw). */
function parseSearchArgs(argv: readonly string[]) {
  const rest: string[] = [];
  let seed = DEFAULT_SEED;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--seed' || arg.startsWith('--seed=')) {
      seed = Number(arg.includes('=') ? arg.slice('--seed='.length) : argv[(i += 1)]);
      if (!Number.isInteger(seed)) throw new Error('--seed: a whole number');
    } else rest.push(arg);
  }
  const args = parseBenchArgs(rest);
  if (args.only.length) throw new Error('--only: not an option of bench:search');
  return { ...args, seed };
}

async function main(): Promise<void> {
  const args = parseSearchArgs(process.argv.slice(2));
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('DATABASE_URL is not set: the PostgreSQL database seeded by npm run bench:seed');
  const targets = await prepareDatabases(args, baseUrl, say);
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  const postgres = String((await client.query('show server_version')).rows[0].server_version);
  await client.end();
  const report: SearchReport = {
    generatedAt: new Date().toISOString(),
    machine: describeMachine(),
    commit: gitCommit(),
    settings: {
      seed: args.seed,
      connections: args.connections,
      duration: args.duration,
      poolSize: BENCH_POOL_SIZE,
      node: `Node ${process.version}`,
      postgres,
      request: `GET ${usersPath(LIST)}&search=…`,
      exactness: 'every user (the list includes inactive users: includeInactive=true, as the SPA asks)',
    },
    runs: [],
  };
  for (const target of targets) report.runs.push(await benchSize(target, args));
  console.log(consoleSearchReport(report));
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'search-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'search-latest.md'), markdownSearchReport(report));
  say('written: bench/results/search-latest.json, bench/results/search-latest.md');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
