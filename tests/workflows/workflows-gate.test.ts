// The coverage gate and the charts' CI check. Machines are found by their files (src/machines/**/*.machine.ts, rules/**/*.machine.ts),
// so a new machine fails here until it has a catalog entry and a model covering all of it.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { workflowCatalog, workflowId } from '../../src/workflows/catalog';
import { catalogProblems } from '../../src/workflows/machine-outline';
import { DOCS_DIR, measureWorkflows, renderWorkflowFiles, type WorkflowMeasure } from '../../scripts/workflow-docs';
import { findModel, machineFiles, machinesOf, ROOT } from '../model/workflow-models';

let measures: WorkflowMeasure[];
beforeAll(async () => {
  measures = await measureWorkflows();
}, 120_000);

describe('coverage gate', () => {
  it('every machine of src/machines and rules/ has a catalog entry and a model reaching 100% of its states and transitions', async () => {
    const problems: string[] = [];
    const files = machineFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const machine = (await machinesOf(file)).find((m) => m.id === file.id);
      if (!machine) {
        problems.push(`${file.file}: exports no machine of id '${file.id}' (a machine's id is its file name)`);
        continue;
      }
      const entry = workflowCatalog.find((e) => workflowId(e) === file.id);
      if (!entry) problems.push(`${file.file}: no entry in src/workflows/catalog.ts`);
      else if (entry.machine.config !== machine.config) problems.push(`${file.file}: the catalog entry '${file.id}' is another machine`);
      else problems.push(...catalogProblems(entry).map((p) => `${file.file}: catalog entry: ${p}`));

      const found = await findModel(file.id);
      if (!found) {
        problems.push(`${file.file}: no model-based test: tests/machines/${file.id}.model.ts must export its MachineModel (and a test run it with describeMachineModel)`);
        continue;
      }
      if (found.model.machine.config !== machine.config) {
        problems.push(`${found.file}: models the machine '${found.model.machine.id}', not '${file.id}'`);
        continue;
      }
      const measure = measures.find((m) => m.id === file.id);
      if (!measure) continue; // no catalog entry: reported above
      if (measure.error) problems.push(`${found.file}: a generated path fails: ${measure.error}`);
      for (const id of measure.missing?.states ?? []) problems.push(`${found.file}: state never reached: ${id}`);
      for (const id of measure.missing?.transitions ?? []) problems.push(`${found.file}: transition never taken: ${id}`);
    }
    for (const entry of workflowCatalog) {
      if (!files.some((f) => f.id === workflowId(entry))) problems.push(`src/workflows/catalog.ts: '${workflowId(entry)}' has no file src/machines/**/${workflowId(entry)}.machine.ts nor rules/**/${workflowId(entry)}.machine.ts`);
    }
    expect(problems, 'What the coverage gate misses, one line each').toEqual([]);
  });
});

describe('charts (CI check)', () => {
  it('docs/workflows and src/workflows/model-coverage.gen.json match the machines: otherwise run `npm run charts`', () => {
    const failing = measures.filter((m) => m.error);
    expect(failing.map((m) => `${m.id}: ${m.error}`), 'a model fails, so the charts cannot be regenerated').toEqual([]);
    const expected = renderWorkflowFiles(workflowCatalog, measures);
    const read = (file: string) => (fs.existsSync(path.join(ROOT, file)) ? fs.readFileSync(path.join(ROOT, file), 'utf8') : null);
    const stale = [...expected].filter(([file, content]) => read(file) !== content).map(([file]) => file);
    const docs = fs.existsSync(path.join(ROOT, DOCS_DIR)) ? fs.readdirSync(path.join(ROOT, DOCS_DIR)) : [];
    const extra = docs.filter((name) => name.endsWith('.md') && !expected.has(`${DOCS_DIR}/${name}`)).map((name) => `${DOCS_DIR}/${name} (no such machine)`);
    const outdated = [...stale, ...extra];
    expect(outdated, `The workflow charts are stale: run \`npm run charts\` and commit the result.\n${outdated.join('\n')}`).toEqual([]);
  });
});
