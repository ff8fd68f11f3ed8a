// exportUsers: the users list as a CSV file, with the list's rights, reach and filters, every matching user.
import type { Kysely } from 'kysely';
import type { DormancyConfig } from '../../config.ts';
import type { Actor } from '../../core/actor.ts';
import type { Database, JsonValue } from '../../db/schema.ts';
import { csvDownload, type CsvDownload } from '../exports/exports.service.ts';
import { usersInBatches, type UserBatch } from './users-export.repository.ts';
import { USER_EXPORT_COLUMNS, type ExportedUser } from './users-export.model.ts';
import { byUserId, userFilterFor } from './users-read.service.ts';
import { exportFilterQuery, type ExportUsersQuery } from './users.input.ts';
import { visibleAssignments } from './users.policy.ts';
import type { UserScope } from './users.model.ts';

/** Each user of a batch with the assignments the actor may see of them (as listUsers shows them). */
async function* seenBatches(actor: Actor, scope: UserScope | null, batches: AsyncIterable<UserBatch>): AsyncGenerator<ExportedUser[]> {
  for await (const { rows, assignments } of batches) {
    const byUser = byUserId(assignments);
    yield rows.map((user) => ({ user, assignments: visibleAssignments(actor, scope, user.id, byUser.get(user.id) ?? []) }));
  }
}

export function usersExportService({ db, now, dormancy }: { db: Kysely<Database>; now: () => Date; dormancy: DormancyConfig }) {
  return {
    /** exportUsers: checked before anything is sent (403, 404 for an organization out of reach); the rows are read as the file is. */
    async exportCsv(actor: Actor, query: ExportUsersQuery): Promise<CsvDownload> {
      const filter = await userFilterFor(db, actor, exportFilterQuery(query), { now: now(), warnAfterDays: dormancy.warnAfterDays });
      const filters = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, JsonValue>;
      return csvDownload(db, actor, { list: 'users', columns: USER_EXPORT_COLUMNS, batches: seenBatches(actor, filter.scope, usersInBatches(db, filter)), filters });
    },

    /**
     * exportSelectedUsers: the same file for exactly these users (a selection of the list, inactive ones included),
     * by name; those the caller may not list are left out, as the list leaves them out.
     */
    async exportSelectedCsv(actor: Actor, userIds: readonly string[]): Promise<CsvDownload> {
      const filter = { ...(await userFilterFor(db, actor, { includeInactive: true }, { now: now(), warnAfterDays: dormancy.warnAfterDays })), userIds: [...new Set(userIds)] };
      return csvDownload(db, actor, { list: 'users', columns: USER_EXPORT_COLUMNS, batches: seenBatches(actor, filter.scope, usersInBatches(db, filter)), filters: { selectedUsers: filter.userIds.length } });
    },
  };
}
