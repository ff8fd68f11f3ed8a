import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../server/db/database.ts';

/**
 * Makes the next commits writing an audit entry fail with a SQLSTATE of the test's choice, as PostgreSQL
 * does when it gives up a transaction for another one (40001 serialization_failure, 40P01 deadlock_detected):
 * a deferred constraint trigger on audit_log raises it at commit. The failures are counted by a sequence,
 * which does not roll back with the failed transactions.
 */
export async function transactionConflictSwitch(handle: DatabaseHandle) {
  await handle.exec(`
    CREATE TABLE IF NOT EXISTS test_conflict_switch (sqlstate text NOT NULL, times integer NOT NULL);
    CREATE SEQUENCE IF NOT EXISTS test_conflict_count;
    CREATE OR REPLACE FUNCTION test_raise_conflict() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE armed test_conflict_switch%ROWTYPE;
    BEGIN
      SELECT * INTO armed FROM test_conflict_switch LIMIT 1;
      IF FOUND AND nextval('test_conflict_count') <= armed.times THEN
        RAISE EXCEPTION 'conflict raised by the test' USING ERRCODE = armed.sqlstate;
      END IF;
      RETURN NULL;
    END $$;
    DROP TRIGGER IF EXISTS test_raise_conflict ON audit_log;
    CREATE CONSTRAINT TRIGGER test_raise_conflict AFTER INSERT ON audit_log DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION test_raise_conflict();
  `);
  return {
    /** Runs `work` with the next `times` commits writing an audit entry failing with `sqlstate`; how many failed. */
    async during<T>(sqlstate: '40001' | '40P01', times: number, work: () => Promise<T>): Promise<{ result: T; failures: number }> {
      await handle.exec(`SELECT setval('test_conflict_count', 1, false); INSERT INTO test_conflict_switch VALUES ('${sqlstate}', ${times})`);
      try {
        const result = await work();
        const { rows } = await sql<{ last_value: string | number; is_called: boolean }>`SELECT last_value, is_called FROM test_conflict_count`.execute(handle.db);
        const raised = rows[0]!.is_called ? Number(rows[0]!.last_value) : 0;
        return { result, failures: Math.min(times, raised) };
      } finally {
        await handle.exec('DELETE FROM test_conflict_switch');
      }
    },
  };
}
