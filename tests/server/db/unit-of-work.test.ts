// One unit of work (server/db/unit-of-work.ts): whole or not at all, with what must happen only once the
// transaction committed (e-mails announced, a remote account deleted) or only if it did not (a remote
// identity directory put back as it was).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../server/db/migrate.ts';
import { inTransaction, type StepLog } from '../../../server/db/unit-of-work.ts';
import { createOutbox, type MailLog } from '../../../server/mail/outbox.ts';
import { accountInvitationMail } from '../../../server/mail/templates.ts';
import { commitFailureSwitch } from '../support/commit-failure.ts';
import { backends, createTestDatabase, type TestDatabase } from './test-databases.ts';

const mail = accountInvitationMail({ email: 'marie.durand@exemple.fr', firstName: 'Marie', lastName: 'Durand', setupUrl: 'https://portail.test/oidc/account/setup?token=t' });
const auditEntry = { actor_id: null, actor_email: 'test@portail.test', action: 'user.update' as const, entity_type: 'user' as const, entity_id: 'x', organization_id: null, changes: '{}' };

describe.each(backends)('the unit of work on $name', (backend) => {
  let testDb: TestDatabase;
  let failCommits: Awaited<ReturnType<typeof commitFailureSwitch>>;
  const logged: { details: object; message: string }[] = [];
  const log: StepLog = { error: (details, message) => void logged.push({ details, message }) };

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
    failCommits = await commitFailureSwitch(testDb.handle);
  }, 120_000);
  afterAll(() => testDb?.dispose());

  const db = () => testDb.handle.db;
  const outboxIds = async () => (await db().selectFrom('outbox').select('id').execute()).map((r) => r.id);

  it('runs the after-commit steps in order once committed, never the rollback ones', async () => {
    const steps: string[] = [];
    const answer = await inTransaction(db(), async (uow) => {
      uow.afterCommit({ what: 'first', run: () => void steps.push('first') });
      uow.onRollback({ what: 'undo', run: () => void steps.push('undo') });
      uow.afterCommit({ what: 'second', run: () => void steps.push('second') });
      expect(steps).toEqual([]);
      return 42;
    });
    expect(answer).toBe(42);
    expect(steps).toEqual(['first', 'second']);
  });

  it('undoes, last first, when the work fails, and answers the work’s own error', async () => {
    const steps: string[] = [];
    const work = inTransaction(db(), async (uow) => {
      uow.onRollback({ what: 'undo 1', run: () => void steps.push('undo 1') });
      uow.afterCommit({ what: 'announce', run: () => void steps.push('announce') });
      uow.onRollback({ what: 'undo 2', run: () => void steps.push('undo 2') });
      throw new Error('échec de la modification');
    });
    await expect(work).rejects.toThrow('échec de la modification');
    expect(steps).toEqual(['undo 2', 'undo 1']);
  });

  it('undoes when the commit itself fails, after every statement succeeded', async () => {
    const steps: string[] = [];
    const work = failCommits.during(() =>
      inTransaction(db(), async (uow) => {
        await uow.trx.insertInto('audit_log').values(auditEntry).execute();
        uow.onRollback({ what: 'enable the remote account again', run: () => void steps.push('undo') });
        uow.afterCommit({ what: 'delete the remote account', run: () => void steps.push('after commit') });
      }),
    );
    await expect(work).rejects.toThrow('commit refused by the test');
    expect(steps).toEqual(['undo']);
    expect(await db().selectFrom('audit_log').select('id').where('actor_email', '=', auditEntry.actor_email).execute()).toEqual([]);
  });

  it('logs a failing step with its details and still runs the others', async () => {
    logged.length = 0;
    const steps: string[] = [];
    await inTransaction(
      db(),
      async (uow) => {
        uow.afterCommit({ what: 'deleteAccount', run: () => Promise.reject(new Error('Graph injoignable')), failure: { message: 'compte restant à supprimer', details: { userId: 'u1' } } });
        uow.afterCommit({ what: 'announce', run: () => void steps.push('announce') });
      },
      log,
    );
    expect(steps).toEqual(['announce']);
    expect(logged).toEqual([{ details: expect.objectContaining({ step: 'deleteAccount', userId: 'u1' }), message: 'compte restant à supprimer' }]);
  });

  it('announces an e-mail of the outbox only once its transaction committed, and never one rolled back', async () => {
    const announced: object[] = [];
    const mailLog: MailLog = { info: (details) => void announced.push(details) };
    const outbox = createOutbox(mailLog);
    const before = await outboxIds();
    const id = await inTransaction(db(), async (uow) => {
      const written = await outbox.enqueue(uow, mail);
      expect(announced).toEqual([]);
      return written;
    });
    expect(announced).toEqual([{ outboxId: id, kind: 'account.invitation' }]);

    await expect(
      inTransaction(db(), async (uow) => {
        await outbox.enqueue(uow, mail);
        throw new Error('échec de la modification');
      }),
    ).rejects.toThrow('échec');
    expect(announced).toHaveLength(1);
    expect(await outboxIds()).toEqual([...before, id]);
  });
});
