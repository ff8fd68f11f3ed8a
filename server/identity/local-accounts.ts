// Accounts of the local OpenID Connect provider (identity_accounts): development and tests only.
import type { Kysely } from 'kysely';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { Database } from '../db/schema.ts';

export interface IdentityAccount {
  subject: string;
  email: string;
  displayName: string;
  enabled: boolean;
  /** False: the account cannot sign in until a password is set. */
  hasPassword: boolean;
  createdAt: Date;
  /** Sessions and refresh tokens that began before this moment are refused (LocalIdentityDirectory.revokeSessions). */
  sessionsRevokedAt: Date | null;
}

export interface VerifiedIdentity {
  subject: string;
  email: string;
  displayName: string;
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

function selectAccounts(db: Kysely<Database>) {
  return db.selectFrom('identity_accounts').select(['subject', 'email', 'display_name', 'password_hash', 'enabled', 'created_at', 'sessions_revoked_at']);
}

type AccountRow = Awaited<ReturnType<ReturnType<typeof selectAccounts>['executeTakeFirstOrThrow']>>;

function toAccount(row: AccountRow): IdentityAccount {
  return {
    subject: row.subject,
    email: row.email,
    displayName: row.display_name,
    enabled: row.enabled,
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
    sessionsRevokedAt: row.sessions_revoked_at,
  };
}

async function findRowByEmail(db: Kysely<Database>, email: string): Promise<AccountRow | undefined> {
  return selectAccounts(db)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', normalizeEmail(email)))
    .executeTakeFirst();
}

/** Case-insensitive. */
export async function findIdentityByEmail(db: Kysely<Database>, email: string): Promise<IdentityAccount | null> {
  const row = await findRowByEmail(db, email);
  return row ? toAccount(row) : null;
}

export async function findIdentityBySubject(db: Kysely<Database>, subject: string): Promise<IdentityAccount | null> {
  const row = await selectAccounts(db).where('subject', '=', subject).executeTakeFirst();
  return row ? toAccount(row) : null;
}

/**
 * Hash of a random password nobody kept, verified against when the account is unknown or has no password,
 * so that those answers take as long as a wrong password. Made with DEFAULT_SCRYPT_PARAMS (a test checks
 * that they still match): the same cost as any stored hash.
 */
export const DECOY_HASH = 'scrypt$32768$8$1$X704EUw6vNDAPmOsP6Gkng==$LhsJ2nRLHJrgC11vH7fHyFRFGa/ytr6oHk1Nf88ol3g=';

/**
 * The identity when the email and password match an enabled account, else null (unknown email,
 * wrong password, no password set, disabled account). Whether the portal user is active is not
 * checked here: an inactive user signs in and the portal itself refuses them (spec §2).
 */
export async function verifyLocalCredentials(
  db: Kysely<Database>,
  email: string,
  password: string,
): Promise<VerifiedIdentity | null> {
  const row = await findRowByEmail(db, email);
  const stored = row?.password_hash ?? DECOY_HASH;
  const matches = await verifyPassword(password, stored);
  if (!row || row.password_hash === null || !row.enabled || !matches) return null;
  return { subject: row.subject, email: row.email, displayName: row.display_name };
}

/** Creates a local account; without a password it cannot sign in until one is set. */
export async function createIdentityAccount(
  db: Kysely<Database>,
  input: { subject: string; email: string; displayName: string; password?: string | null; enabled?: boolean },
): Promise<IdentityAccount> {
  const row = await db
    .insertInto('identity_accounts')
    .values({
      subject: input.subject,
      email: input.email.trim(),
      display_name: input.displayName,
      password_hash: input.password ? await hashPassword(input.password) : null,
      enabled: input.enabled ?? true,
    })
    .returning(['subject', 'email', 'display_name', 'password_hash', 'enabled', 'created_at', 'sessions_revoked_at'])
    .executeTakeFirstOrThrow();
  return toAccount(row);
}

/** Sets (or, with null, removes) the password of an account; false when the subject is unknown. */
export async function setIdentityPassword(db: Kysely<Database>, subject: string, password: string | null): Promise<boolean> {
  const passwordHash = password === null ? null : await hashPassword(password);
  const result = await db
    .updateTable('identity_accounts')
    .set({ password_hash: passwordHash })
    .where('subject', '=', subject)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
