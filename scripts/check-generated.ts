import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// src/api/schema.gen.ts is generated from openapi/openapi.yaml: a stale copy fails the build.
const committed = 'src/api/schema.gen.ts';
const fresh = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'schema-')), 'schema.gen.ts');
execFileSync(process.execPath, ['node_modules/openapi-typescript/bin/cli.js', 'openapi/openapi.yaml', '-o', fresh], { stdio: 'pipe' });
if (fs.readFileSync(fresh, 'utf8') !== fs.readFileSync(committed, 'utf8')) {
  console.error(`${committed} is stale: run \`npm run gen:api\` and commit the result.`);
  process.exit(1);
}
console.log(`${committed} matches openapi/openapi.yaml`);
