import { describe, expect, it } from 'vitest';
import { errorBody, fieldErrorsFromValidation } from '../../server/http/errors.ts';

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
      { field: 'body.email', message: 'Champ obligatoire manquant.' },
      { field: 'body.isAdmin', message: 'Champ inconnu refusé.' },
      { field: 'body.roles.0', message: 'Format invalide.' },
      { field: 'body.jobTitle', message: 'Maximum 100 caractères.' },
    ]);
  });

  it('names query parameters as query.<name>', () => {
    expect(fieldErrorsFromValidation([{ instancePath: '/pageSize', keyword: 'maximum', params: { limit: 100 } }], 'querystring')).toEqual([
      { field: 'query.pageSize', message: 'Valeur maximale : 100.' },
    ]);
  });

  it('answers { error, message, fieldErrors, requestId } and leaves fieldErrors out when there are none', () => {
    expect(errorBody(409, 'Déjà traitée.', 'req-1')).toEqual({ error: 'Conflict', message: 'Déjà traitée.', requestId: 'req-1' });
    expect(errorBody(400, 'Requête invalide.', 'req-2', [{ field: 'body.email', message: 'x' }])).toMatchObject({ error: 'BadRequest', fieldErrors: [{ field: 'body.email' }] });
  });
});
