import type { DatabaseHandle } from '../../../server/db/database.ts';

/**
 * A switch that makes commits fail after every statement of the transaction succeeded, as a lost
 * connection or a serialization failure at COMMIT would: a deferred constraint trigger on audit_log
 * (every change writes one) raises at commit time while the switch is on.
 */
export async function commitFailureSwitch(handle: DatabaseHandle) {
  await handle.exec(`
    CREATE TABLE IF NOT EXISTS test_commit_switch (armed boolean NOT NULL);
    CREATE OR REPLACE FUNCTION test_refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM test_commit_switch) THEN RAISE EXCEPTION 'commit refused by the test'; END IF;
      RETURN NULL;
    END $$;
    DROP TRIGGER IF EXISTS test_refuse_commit ON audit_log;
    CREATE CONSTRAINT TRIGGER test_refuse_commit AFTER INSERT ON audit_log DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION test_refuse_commit();
  `);
  return {
    /** Runs `work` with every commit writing an audit entry failing. */
    async during<T>(work: () => Promise<T>): Promise<T> {
      await handle.exec('INSERT INTO test_commit_switch VALUES (true)');
      try {
        return await work();
      } finally {
        await handle.exec('DELETE FROM test_commit_switch');
      }
    },
  };
}
