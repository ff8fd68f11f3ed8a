// The refusals of the product, below HTTP: services, policies and input checks throw these; the API maps
// each kind to its status in one place (server/api/errors.ts). Messages are the French ones people read.

export interface FieldError {
  field: string;
  message: string;
}

export type DomainErrorKind = 'invalid' | 'unauthenticated' | 'forbidden' | 'notFound' | 'conflict' | 'tooMany' | 'unavailable';

/**
 * A refusal: an answer, not a fault, so it carries no stack. Capturing one was most of the cost of asking a policy
 * whether it lets an action through (users.policy.ts allowedUserActions asks up to six decisions for each row of a
 * page: 2.7 % of the server's time on the users list under load).
 */
export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly fieldErrors: FieldError[] | undefined;
  constructor(kind: DomainErrorKind, message: string, fieldErrors?: FieldError[]) {
    const frames = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = frames;
    }
    this.name = 'DomainError';
    this.kind = kind;
    this.fieldErrors = fieldErrors;
  }
}

/** Bad input, naming each wrong field; the message is the field's own when there is one. */
export function invalid(fieldErrors: FieldError[], message?: string): DomainError {
  const text = message ?? (fieldErrors.length === 1 ? fieldErrors[0]!.message : `Requête invalide : ${fieldErrors.map((f) => f.field).join(', ')}.`);
  return new DomainError('invalid', text, fieldErrors);
}

export const unauthenticated = (message = 'Authentification requise.') => new DomainError('unauthenticated', message);
export const forbidden = (message = 'Accès refusé.') => new DomainError('forbidden', message);
/** Missing, or out of the caller's reach: the same answer, so that ids cannot be probed. */
export const notFound = (message = 'Ressource introuvable.') => new DomainError('notFound', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const unavailable = (message: string) => new DomainError('unavailable', message);
/** A limit of the product reached (creations an hour): wait, then try again. */
export const tooMany = (message: string) => new DomainError('tooMany', message);
