import { describe, expect, it } from 'vitest';
import { errorBody, fieldErrorsFromValidation } from '../../server/api/errors.ts';
import { MESSAGES } from '../../rules/validation.ts';
import { conflict, DomainError } from '../../server/core/errors.ts';

describe('API error bodies', () => {
  it('names the field of a missing property, an unknown one and a bad value, in French', () => {
    const fields = fieldErrorsFromValidation(
      [
        { instancePath: '', keyword: 'required', params: { missingProperty: 'email' } },
        { instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'isAdmin' } },
        { instancePath: '/roles/0', keyword: 'pattern', params: {} },
        { instancePath: '/jobTitle', keyword: 'maxLength', params: { limit: 100 } },
      ],
      'body',
    );
    expect(fields).toEqual([
      { field: 'body.email', message: 'Champ obligatoire manquant' },
      { field: 'body.isAdmin', message: 'Champ inconnu refusé' },
      { field: 'body.roles.0', message: 'Format invalide' },
      { field: 'body.jobTitle', message: 'Maximum 100 caractères' },
    ]);
  });

  it("ends field messages as spec §5 and the shared zod schemas do, without a full stop ('Minimum 2 caractères requis')", () => {
    const fields = fieldErrorsFromValidation(
      [
        { instancePath: '/firstName', keyword: 'minLength', params: { limit: 2 } },
        { instancePath: '/jobTitle', keyword: 'maxLength', params: { limit: 100 } },
        { instancePath: '/roleIds', keyword: 'minItems', params: { limit: 1 } },
        { instancePath: '/invitationType', keyword: 'enum', params: { allowedValues: ['NEW_ADMIN', 'ROLE_ASSIGNMENT'] } },
        { instancePath: '/page', keyword: 'type', params: { type: 'integer' } },
        { instancePath: '/x', keyword: 'const', params: {} },
      ],
      'body',
    );
    expect(fields.map((f) => f.message)).toEqual([
      MESSAGES.min2,
      MESSAGES.jobTitleMax,
      'Au moins 1 élément(s) requis',
      'Valeur attendue parmi : NEW_ADMIN, ROLE_ASSIGNMENT',
      'Type attendu : integer',
      'Valeur invalide',
    ]);
    for (const { message } of fields) expect(message).not.toMatch(/\.$/);
  });

  it('names query parameters as query.<name>', () => {
    expect(fieldErrorsFromValidation([{ instancePath: '/pageSize', keyword: 'maximum', params: { limit: 100 } }], 'querystring')).toEqual([
      { field: 'query.pageSize', message: 'Valeur maximale : 100' },
    ]);
  });

  it('answers { error, message, fieldErrors, requestId } and leaves fieldErrors out when there are none', () => {
    expect(errorBody(409, 'Déjà traitée.', 'req-1')).toEqual({ error: 'Conflict', message: 'Déjà traitée.', requestId: 'req-1' });
    expect(errorBody(400, 'Requête invalide.', 'req-2', [{ field: 'body.email', message: 'x' }])).toMatchObject({ error: 'BadRequest', fieldErrors: [{ field: 'body.email' }] });
  });
});

describe('refusals (server/core/errors.ts)', () => {
  it('carry no stack, being answers rather than faults, and leave the stacks of errors made after them whole', () => {
    const refusal = conflict('Cette demande a déjà été traitée.');
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal.message).toBe('Cette demande a déjà été traitée.');
    expect(refusal.stack).toBe('DomainError: Cette demande a déjà été traitée.');
    expect(new Error('panne').stack!.split('\n').length).toBeGreaterThan(1);
  });
});
