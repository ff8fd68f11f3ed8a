// node bench/organizations-search.ts [--root DIR] [--duration 10] [--connections 32]
// The organizations' search of the SIREN and SIRET comboboxes (issue 20), on DATABASE_URL (seeded by npm run
// bench:seed: 200,000 organizations at 1M users). A freshly started server (production mode, from --root: another
// checkout, to measure a former version), as the back office: the unfiltered page 1 (100 a page) timed 7 times on one
// connection; each term's first request alone, searched alone and as the wizard's SIREN combobox asks
// (type=SIREN&forNewAccess=true); then the mix of the searches at 32 connections, after a 2 s warm-up. Prints a markdown summary.
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runLoad, WARM_UP_SECONDS } from './load.ts';
import { BACK_OFFICE } from './scenarios.ts';
import { freePort, startServer } from './server-process.ts';
import { BENCH_POOL_SIZE, serverEnv, tokenSigner } from './server-env.ts';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = 'page=1&pageSize=100';
const COMBOBOX = 'type=SIREN&forNewAccess=true';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}

function timedGet(origin: string, requestPath: string, token: string, agent: http.Agent): Promise<{ ms: number; status: number; total: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(`${origin}${requestPath}`, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          let total = Number.NaN;
          try {
            total = Number((JSON.parse(body) as { total?: number }).total);
          } catch {
            // an error page
          }
          resolve({ ms: performance.now() - started, status: response.statusCode ?? 0, total });
        });
      })
      .on('error', reject);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: a database seeded by npm run bench:seed');
  const root = path.resolve(option('root', HERE));
  const duration = Number(option('duration', '10'));
  const connections = Number(option('connections', '32'));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const siret = (await client.query(`select code from organizations where type = 'SIRET' order by code offset 77777 limit 1`)).rows[0].code as string;
  const siren = (await client.query(`select code from organizations where type = 'SIREN' order by code offset 22222 limit 1`)).rows[0].code as string;
  // The town the fewest SIRETs name (the end of their names).
  const town = (await client.query(`select t from (select split_part(name, ' - ', 2) as t from organizations where name like '% - %') x
      where t ~ '^[A-Za-z]{6,}$' group by t order by count(*), t limit 1`)).rows[0].t as string;
  const subject = (await client.query('select auth_id from users where email = $1', [BACK_OFFICE])).rows[0]?.auth_id as string;
  await client.end();
  const terms = ['ssiad', 'clinique', 'a', 'e', 'zz', 'de', siret, siren, `${siren.slice(0, 3)} ${siren.slice(3, 6)} ${siren.slice(6)}`, siret.slice(3, 8),
    town.toLowerCase(), 'illkirch', 'hopital', 'Hôpital privé', 'ERABLES', 'sainte-anne', 'pharmacie', 'ehpad les', 'centre de sante', 'marie curie', 'xqzw', 'residence autonomie'];

  const dataDir = path.join(HERE, 'bench', '.work', 'data-organizations');
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const token = await (await tokenSigner(dataDir, origin))(subject, BACK_OFFICE);
  const server = await startServer({ env: serverEnv({ databaseUrl: url, port, dataDir, poolSize: BENCH_POOL_SIZE }), port, logFile: path.join(HERE, 'bench', '.work', 'server-organizations.log'), root });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const list = (query: string) => `/api/v2/organizations?${PAGE}${query}`;
  try {
    const baseline: number[] = [];
    for (let i = 0; i < 7; i += 1) baseline.push((await timedGet(origin, list(''), token, agent)).ms);
    const base = median(baseline);
    // Searches of other terms first, unmeasured (as bench:search): a fresh process's first searches compile their code
    // and prepare their statements; what is measured is a term the process has not seen.
    const warmUp = ['maison', 'centre hospitalier', 'lyon', 'ab', '7'];
    for (const term of warmUp) for (const query of ['', `&${COMBOBOX}`]) await timedGet(origin, list(`${query}&search=${encodeURIComponent(term)}`), token, agent);
    console.log(`root ${root}; unfiltered page 1 (100): median of 7 ${base.toFixed(1)} ms; then ${warmUp.length * 2} searches of other terms, unmeasured\n`);
    console.log('| term | search alone: ms | total | SIREN combobox: ms | total |\n|---|---:|---:|---:|---:|');
    const firsts: number[] = [];
    for (const term of terms) {
      const alone = await timedGet(origin, list(`&search=${encodeURIComponent(term)}`), token, agent);
      const combo = await timedGet(origin, list(`&${COMBOBOX}&search=${encodeURIComponent(term)}`), token, agent);
      firsts.push(alone.ms, combo.ms);
      const flag = (ms: number, status: number) => `${ms.toFixed(1)}${ms > 5 * base ? ' (>5×)' : ''}${status === 200 ? '' : ` HTTP ${status}`}`;
      console.log(`| \`${term}\` | ${flag(alone.ms, alone.status)} | ${alone.total} | ${flag(combo.ms, combo.status)} | ${combo.total} |`);
    }
    console.log(`\nfirst requests (${firsts.length}): p50 ${median(firsts).toFixed(1)} ms, p95 ${percentile(firsts, 95).toFixed(1)}, max ${Math.max(...firsts).toFixed(1)}; above 5× page 1: ${firsts.filter((ms) => ms > 5 * base).length}`);
    const variants = terms.flatMap((term) => [list(`&search=${encodeURIComponent(term)}`), list(`&${COMBOBOX}&search=${encodeURIComponent(term)}`)]).map((p) => ({ method: 'GET' as const, path: p }));
    // After the same warm-up as npm run bench's scenarios (unmeasured): the first requests used one connection of the pool.
    await runLoad({ url: origin, connections, duration: WARM_UP_SECONDS, token, variants });
    const mix = await runLoad({ url: origin, connections, duration, token, variants });
    console.log(`mix of ${variants.length} requests, ${connections} connections, ${duration} s after a ${WARM_UP_SECONDS} s warm-up: ${Math.round(mix.rps)} req/s, p50 ${mix.p50.toFixed(1)} ms, p95 ${mix.p95.toFixed(1)}, p99 ${mix.p99.toFixed(1)}, ${mix.errors} errors, statuses ${JSON.stringify(mix.statuses)}`);
  } finally {
    agent.destroy();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
