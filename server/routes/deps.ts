import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { IdentityDirectory } from '../idp/directory.ts';

/** What the handlers of every resource receive. */
export interface HandlerDeps {
  db: Kysely<Database>;
  directory: IdentityDirectory;
}
