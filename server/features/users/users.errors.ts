// The refusals of a write to users, and the failures of the database or the identity directory they stand for.
import { conflict, unavailable } from '../../core/errors.ts';
import { IdentityDirectoryError, IdentityTakenError } from '../../identity/directory.ts';

export const WRITE_MESSAGES = {
  emailTaken: 'Cette adresse email est déjà utilisée par un autre utilisateur.',
  staleVersion: "Cet utilisateur a été modifié par quelqu'un d'autre entre-temps. Rechargez la page.",
  directoryUnavailable: "Le service d'identité est momentanément indisponible. Réessayez dans quelques instants.",
  identityTaken: "Le compte de connexion de cette adresse email appartient déjà à un autre utilisateur.",
} as const;

export const staleVersion = () => conflict(WRITE_MESSAGES.staleVersion);
export const emailTaken = () => conflict(WRITE_MESSAGES.emailTaken);

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === '23505' && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}

/**
 * A concurrent creation with the same email (unique index) answers 409, as does an identity-provider
 * account already linked to another user or signing in with that email; an unreachable identity provider 503.
 */
export function mapWriteError(error: unknown): unknown {
  if (isUniqueViolation(error, 'users_email_lower_key')) return emailTaken();
  if (isUniqueViolation(error, 'users_auth_id_key') || isUniqueViolation(error, 'identity_accounts_email_lower_key') || error instanceof IdentityTakenError) {
    return conflict(WRITE_MESSAGES.identityTaken);
  }
  if (error instanceof IdentityDirectoryError) return unavailable(WRITE_MESSAGES.directoryUnavailable);
  return error;
}
