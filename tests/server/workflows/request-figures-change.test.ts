// The moment the request lifecycle's kept figures are read again (request-figures.repository.ts
// readRequestFiguresChange): a request leaves a period of N days exactly N × 24 hours after it was made, whatever the
// database session's time zone. A server whose PostgreSQL runs in Europe/Paris (a French host's default) added the
// period as calendar days in that zone: across the end of summer time, the bound came an hour late, and figures that
// still counted the request were served for that hour.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { readRequestFiguresChange } from '../../../server/features/workflows/request-figures.repository.ts';
import { backends } from '../db/test-databases.ts';
import { DAY, migratedDatabase } from '../support/migrated-database.ts';

const MADE = new Date('2026-10-12T12:00:00Z');
const TO = new Date('2026-11-10T12:00:00Z');

describe.each(backends)('the kept figures bound on $name', (backend) => {
  const db = migratedDatabase(backend, ['invitations']);

  it.each(['UTC', 'Europe/Paris'])('is the moment the request leaves the period, in a session in %s', async (zone) => {
    await db()
      .insertInto('invitations')
      .values({
        invitee_email: 'fuseau.horaire@exemple-test.fr',
        organization_code: '123456789',
        organization_name: 'Clinique',
        role_code: 'ADMIN_ADHERENT',
        role_name: 'Administrateur adhérent',
        invitation_type: 'NEW_ADMIN',
        sender_email: 'backoffice@portail.test',
        status: 'PENDING',
        created_at: MADE,
      })
      .execute();
    const bound = await db()
      .transaction()
      .execute(async (trx) => {
        await sql`select set_config('TimeZone', ${zone}, true)`.execute(trx);
        return readRequestFiguresChange(trx, { kind: 'all' }, ['APPROVED', 'REJECTED'], new Date(TO.getTime() - 30 * DAY), TO);
      });
    // Made on 12 October, in the 30 days before 10 November: out of them from 11 November at the same hour (UTC).
    expect(bound?.toISOString()).toBe(new Date(MADE.getTime() + 30 * DAY).toISOString());
  });
});
