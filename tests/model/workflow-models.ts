// Finds the machines of src/machines and the shared ones of rules/ (by their files) and their models (tests/machines/<id>.model.ts), and
// measures what a model covers: shared by the coverage gate and `npm run charts`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { generatePaths, measureCoverage, type MachineModel, type ModelCoverage } from './harness';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The SPA's machines, and the ones the SPA and the server share (rules/, e.g. the request lifecycle the server's services ask).
const MACHINES_DIRS = [path.join(ROOT, 'src', 'machines'), path.join(ROOT, 'rules')];
const MODELS_DIR = path.join(ROOT, 'tests', 'machines');

export interface MachineFile {
  /** The file name without `.machine.ts`: the machine's id by convention. */
  id: string;
  /** Relative to the project root, with forward slashes. */
  file: string;
}

const relative = (absolute: string) => path.relative(ROOT, absolute).split(path.sep).join('/');

/** Every `*.machine.ts` under src/machines and rules/, whatever its folder: a new machine is found without being listed anywhere. */
export function machineFiles(): MachineFile[] {
  return MACHINES_DIRS.flatMap((dir) =>
    (fs.readdirSync(dir, { recursive: true }) as string[])
      .filter((name) => name.endsWith('.machine.ts'))
      .map((name) => ({ id: path.basename(name, '.machine.ts'), file: relative(path.join(dir, name)) })),
  ).sort((a, b) => a.file.localeCompare(b.file));
}

export const isMachine = (value: unknown): value is AnyStateMachine =>
  typeof value === 'object' && value !== null && 'root' in value && 'config' in value && typeof (value as { provide?: unknown }).provide === 'function';

const isModel = (value: unknown): value is MachineModel<AnyStateMachine> =>
  typeof value === 'object' && value !== null && isMachine((value as { machine?: unknown }).machine) && 'events' in value;

/** The machines a machine file exports. */
export async function machinesOf(file: MachineFile): Promise<AnyStateMachine[]> {
  const module = (await import(pathToFileURL(path.join(ROOT, file.file)).href)) as Record<string, unknown>;
  return Object.values(module).filter(isMachine);
}

export interface FoundModel {
  file: string;
  model: MachineModel<AnyStateMachine>;
}

/** The model exported by tests/machines/<id>.model.ts, or null without that file (or without a model in it). */
export async function findModel(id: string): Promise<FoundModel | null> {
  const file = path.join(MODELS_DIR, `${id}.model.ts`);
  if (!fs.existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const model = Object.values(module).find(isModel);
  return model ? { file: relative(file), model } : null;
}

/** Generates the model's paths, replays them all on a real actor and measures what they reached. */
export async function measureModel(model: MachineModel<AnyStateMachine>): Promise<ModelCoverage> {
  return measureCoverage(model, generatePaths(model));
}
