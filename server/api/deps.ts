import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { IdentityDirectory } from '../identity/directory.ts';
import type { ListTotals } from '../db/list-totals.ts';

/** What the handlers of every resource receive. */
export interface HandlerDeps {
  db: Kysely<Database>;
  directory: IdentityDirectory;
  /** Totals of filtered lists kept while the data does not change (server/db/list-totals.ts); null: counted every time. */
  listTotals: ListTotals | null;
}
