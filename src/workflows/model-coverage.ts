import measured from './model-coverage.gen.json';
import type { WorkflowCoverage } from './catalog-types';

/**
 * The model-based test numbers of each machine, by id, as `npm run charts` measured them from the models
 * (tests/machines/<id>.model.ts). The CI check fails when this file no longer matches the models.
 */
export const modelCoverage: Readonly<Partial<Record<string, WorkflowCoverage>>> = measured;
