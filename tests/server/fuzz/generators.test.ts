// The fuzz's generators against the contract itself, without a server: every request they call valid is
// accepted by the document's schemas (validated as the server validates, coercion included), every one
// they call invalid at the schema level is refused, and an operation they cannot generate fails.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { document as contractDocument, acceptedByContract, operations, type Operation } from './contract.ts';
import { operationIds } from '../../../server/api/openapi-document.ts';
import { hintsFor, type RealRows } from './real-rows.ts';
import { describeRequest, requestArbitrary } from './requests.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const SAMPLES = 150;

/** Rows as the hints need them, made up: the generators' shapes do not depend on the database. */
const rows: RealRows = {
  users: { near: [randomUUID(), randomUUID()], far: [randomUUID()] },
  emails: ['marie.dupont@exemple.fr'],
  organizations: {
    near: [{ id: randomUUID(), code: '123456789', type: 'SIREN' }, { id: randomUUID(), code: '12345678900012', type: 'SIRET' }],
    far: [{ id: randomUUID(), code: '987654321', type: 'SIREN' }],
  },
  invitations: [1, 2, 3],
  emailChangeTokens: ['A'.repeat(43)],
  bulkActions: { near: [randomUUID()], far: [randomUUID()] },
  roles: { near: [{ id: 2, code: 'ADMIN_ADHERENT' }, { id: 7, code: 'COMPTABLE' }], far: [{ id: 1, code: 'ADMIN_OPCO' }] },
};
const hints = hintsFor(rows);

describe('the fuzz generators', () => {
  it('cover every operation of the document', () => {
    expect(operations().map((op) => op.operationId)).toEqual(operationIds(contractDocument));
  });

  it.each(operations())('generate requests of $operationId that the contract accepts or refuses as they claim', (op) => {
    const kinds = new Map<string, number>();
    for (const request of fc.sample(requestArbitrary(op, hints), { numRuns: SAMPLES, seed: SEED })) {
      const verdict = acceptedByContract(op, request.parts);
      const kind = request.invalid?.kind.replace(/^(path|query|header) \S+: /, '$1: ') ?? 'valid';
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if (!request.invalid) expect(verdict.accepted, `${describeRequest(request)}\n${verdict.errors}`).toBe(true);
      else if (request.invalid.byContract) expect(verdict.accepted, describeRequest(request)).toBe(false);
    }
    expect(kinds.get('valid') ?? 0).toBeGreaterThan(SAMPLES / 4);
    if (op.parameters.length || op.body) expect(kinds.size, [...kinds.keys()].join(", ")).toBeGreaterThan(1);
  });

  it('make every kind of invalid request across the document', () => {
    const kinds = new Set(operations().flatMap((op) => fc.sample(requestArbitrary(op, hints), { numRuns: SAMPLES, seed: SEED }).map((r) => r.invalid?.kind.replace(/^.*: /, '') ?? 'valid')));
    const expected = ['wrong type', 'required field removed', 'unknown field', 'beyond maxLength', 'below minLength', 'huge text', 'number out of bounds', 'bad integer', 'bad boolean', 'breaks the pattern', 'malformed uuid', 'not in enum', 'NUL character', 'unpaired surrogate', 'non-finite number', 'too many items', 'too few items', 'body missing', 'body sent as text/plain', '__proto__ key (prototype poisoning)'];
    expect([...kinds].sort()).toEqual(expect.arrayContaining(expected));
  });

  it('fail on a schema they cannot generate, and on a path parameter without real values', () => {
    const base: Operation = { operationId: 'probe', method: 'GET', route: '/api/v2/probe/{id}', parameters: [], body: null, responses: {} };
    const withPath = (schema: Record<string, unknown>): Operation => ({ ...base, parameters: [{ name: 'id', in: 'path', required: true, schema, ref: null }] });
    expect(() => requestArbitrary(withPath({ type: 'string', format: 'uuid' }), hints)).toThrow(/no source of real values/);
    const probeHints = { ...hints, 'path.id': hints['parameters.UserId']! };
    expect(() => requestArbitrary(withPath({ type: 'string', format: 'ipv4' }), probeHints)).toThrow(/no generator for format 'ipv4'/);
    expect(() => requestArbitrary(withPath({ anyOf: [{ type: 'string' }] }), probeHints)).toThrow(/no generator for JSON schema keyword\(s\) anyOf/);
    expect(() => requestArbitrary({ ...base, route: '/api/v2/probe', body: { schema: { type: 'object', allOf: [] }, required: true } }, hints)).toThrow(/allOf/);
  });
});
