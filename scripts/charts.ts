// `npm run charts`: writes docs/workflows/ and src/workflows/model-coverage.gen.json from the machines,
// the catalog and the models (see workflow-docs.ts). A chart of a machine that is gone is removed.
import fs from 'node:fs';
import path from 'node:path';
import { workflowCatalog } from '../src/workflows/catalog';
import { DOCS_DIR, measureWorkflows, renderWorkflowFiles } from './workflow-docs';
import { ROOT } from '../tests/model/workflow-models';

const measures = await measureWorkflows();
const failing = measures.filter((m) => m.error);
if (failing.length) {
  for (const m of failing) console.error(`The model of '${m.id}' (${m.modelFile}) fails: ${m.error}`);
  process.exit(1);
}
const files = renderWorkflowFiles(workflowCatalog, measures);
fs.mkdirSync(path.join(ROOT, DOCS_DIR), { recursive: true });
for (const name of fs.readdirSync(path.join(ROOT, DOCS_DIR))) {
  if (name.endsWith('.md') && !files.has(`${DOCS_DIR}/${name}`)) fs.rmSync(path.join(ROOT, DOCS_DIR, name));
}
for (const [file, content] of files) fs.writeFileSync(path.join(ROOT, file), content);
console.log(`${files.size} files written: ${[...files.keys()].join(', ')}`);
