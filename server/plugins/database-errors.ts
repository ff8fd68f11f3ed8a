// Failures meaning "the database cannot be reached right now" (stopped, restarting, unreachable, too slow):
// answered 503 with Retry-After, so that clients retry (the SPA does, spec §7), instead of 500.
// Anything else that reaches the error handler (a bug, a refused statement) stays a 500.

export const DATABASE_UNAVAILABLE_MESSAGE = 'Service momentanément indisponible. Réessayez dans quelques instants.';

/** Seconds a client is told to wait before trying again (header Retry-After). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of the connection to PostgreSQL (Node's net module). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs: class 08 (connection exception), 57P01 admin_shutdown (a fast stop ends the sessions),
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down), 53300 too_many_connections,
 * 57014 query_canceled (statement_timeout).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300|57014)$/;

/** What pg and pg-pool throw without a code when a connection is lost, cannot be made in time, or a read times out. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated', // '… unexpectedly', '… due to connection timeout'
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
];

function isUnavailableFailure(error: object): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.startsWith(m));
}

/** The error, or one it wraps (`cause`, the attempts of an AggregateError), says the database is unreachable. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  if (isUnavailableFailure(error)) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (isDatabaseUnavailable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1));
}

/**
 * A transaction PostgreSQL gave up on because of another one, after the unit of work ran it twice
 * (server/db/unit-of-work.ts). Answered per case, never 500:
 * - 40001 serialization_failure: what the request read was changed by another request at the same moment,
 *   twice in a row; the data is contended, not the server: 409, as a stale version is, so that the person
 *   reloads what changed before deciding again (the SPA shows the message and reloads).
 * - 40P01 deadlock_detected: two transactions took the same locks in opposite orders; nothing is wrong with
 *   the request nor with the data, the same request later succeeds: 503 with Retry-After, which clients retry.
 */
export const TRANSACTION_CONFLICT_MESSAGE = 'Ces données ont été modifiées au même moment par une autre requête. Rechargez la page puis réessayez.';

export function transactionConflictOf(error: unknown, depth = 0): 'serialization' | 'deadlock' | null {
  if (!error || typeof error !== 'object' || depth > 4) return null;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (code === '40001') return 'serialization';
  if (code === '40P01') return 'deadlock';
  return transactionConflictOf(cause, depth + 1);
}
