// node --import tsx bench/explain.ts [scenario-name-part …]
// The plans behind the table: each read scenario's first request answered in-process (the server's code),
// and EXPLAIN (ANALYZE, BUFFERS) of every statement it ran, on the database at DATABASE_URL. Writes nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCapturer } from './capture.ts';
import { buildScenarios, sampleScenarioData } from './scenarios.ts';
import { BENCH_POOL_SIZE, serverEnv, tokenSigner } from './server-env.ts';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  const wanted = process.argv.slice(2);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-explain-'));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const env = serverEnv({ databaseUrl: url, port: 9, dataDir, poolSize: BENCH_POOL_SIZE });
  const capturer = await startCapturer(env);
  try {
    await client.query('begin');
    // No write scenario here: the pending invitations it would make are rolled back with the rest.
    const scenarios = buildScenarios(await sampleScenarioData(client, 0)).filter((s) => s.kind === 'read' && (wanted.length === 0 || wanted.some((w) => s.name.includes(w))));
    await client.query('rollback');
    const sign = await tokenSigner(dataDir, 'http://127.0.0.1:9');
    for (const scenario of scenarios) {
      const subject = (await client.query('select auth_id from users where email = $1', [scenario.as])).rows[0].auth_id as string;
      const token = await sign(subject, scenario.as);
      const variant = scenario.variants[0]!;
      for (const pass of ['first request', 'same request again'] as const) {
        const captured = await capturer.capture({ ...variant, token });
        console.log(`\n=== ${scenario.name} (${pass}): ${variant.method} ${variant.path} → ${captured.status}, ${captured.statements.length} statements`);
        for (const statement of captured.statements) {
          const plan = await client.query(`explain (analyze, buffers) ${statement.text}`, statement.values as unknown[]);
          console.log(`\n-- ${JSON.stringify(statement.values).slice(0, 300)}\n${statement.text}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        }
      }
    }
  } finally {
    await capturer.close();
    await client.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
