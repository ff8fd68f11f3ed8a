/**
 * The API's error answers: `{ error, message, fieldErrors?, requestId }`, messages in French. The product's
 * refusals (DomainError, server/core/errors.ts) get their status here and nowhere else; ApiError is for
 * what only HTTP knows (a token missing, a body too large, too many requests).
 */
import { DomainError, type DomainErrorKind, type FieldError } from '../core/errors.ts';

export type { FieldError } from '../core/errors.ts';

const CODES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

export class ApiError extends Error {
  readonly statusCode: number;
  readonly fieldErrors: FieldError[] | undefined;
  constructor(statusCode: number, message: string, fieldErrors?: FieldError[]) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.fieldErrors = fieldErrors;
  }
}

export const unauthorized = (message = 'Authentification requise.') => new ApiError(401, message);

const STATUS_OF: Record<DomainErrorKind, number> = { invalid: 400, unauthenticated: 401, forbidden: 403, notFound: 404, conflict: 409, tooMany: 429, unavailable: 503 };

/** The HTTP status of a refusal of the product. */
export function statusOf(error: DomainError): number {
  return STATUS_OF[error.kind];
}

/** A refusal of the product or of HTTP as status, message and field errors; null for anything else (a failure). */
export function answerOf(error: unknown): { statusCode: number; message: string; fieldErrors: FieldError[] | undefined } | null {
  if (error instanceof DomainError) return { statusCode: statusOf(error), message: error.message, fieldErrors: error.fieldErrors };
  if (error instanceof ApiError) return { statusCode: error.statusCode, message: error.message, fieldErrors: error.fieldErrors };
  return null;
}

export function errorBody(statusCode: number, message: string, requestId: string, fieldErrors?: FieldError[]) {
  return {
    error: CODES[statusCode] ?? (statusCode >= 500 ? 'InternalError' : 'BadRequest'),
    message,
    ...(fieldErrors && fieldErrors.length ? { fieldErrors } : {}),
    requestId,
  };
}

interface AjvError {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** Turns ajv's validation errors into field errors naming the field, e.g. `body.email` or `query.pageSize`. */
export function fieldErrorsFromValidation(errors: AjvError[], context: string | undefined): FieldError[] {
  const where = context === 'querystring' ? 'query' : (context ?? 'body');
  return errors.map((e) => {
    const pathPart = (e.instancePath ?? '').split('/').filter(Boolean).join('.');
    const extra =
      e.keyword === 'required' ? String(e.params?.missingProperty ?? '') : e.keyword === 'additionalProperties' ? String(e.params?.additionalProperty ?? '') : '';
    const field = [where, pathPart, extra].filter(Boolean).join('.');
    return { field, message: frenchMessage(e) };
  });
}

/** Field messages end as the §5 ones of src/domain/validation.ts do: without a full stop. */
function frenchMessage(e: AjvError): string {
  const p = e.params ?? {};
  switch (e.keyword) {
    case 'required':
      return 'Champ obligatoire manquant';
    case 'additionalProperties':
      return 'Champ inconnu refusé';
    case 'type':
      return `Type attendu : ${String(p.type)}`;
    case 'format':
      return `Format attendu : ${String(p.format)}`;
    case 'pattern':
      return 'Format invalide';
    case 'enum':
      return `Valeur attendue parmi : ${Array.isArray(p.allowedValues) ? p.allowedValues.join(', ') : ''}`;
    case 'minLength':
      return `Minimum ${String(p.limit)} caractères requis`;
    case 'maxLength':
      return `Maximum ${String(p.limit)} caractères`;
    case 'minimum':
      return `Valeur minimale : ${String(p.limit)}`;
    case 'maximum':
      return `Valeur maximale : ${String(p.limit)}`;
    case 'minItems':
      return `Au moins ${String(p.limit)} élément(s) requis`;
    case 'maxItems':
      return `Au plus ${String(p.limit)} élément(s)`;
    default:
      return 'Valeur invalide';
  }
}
