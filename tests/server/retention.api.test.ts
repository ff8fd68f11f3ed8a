import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { callApi } from './support/api.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** Settings other than the defaults, so that the answer shows it reads this server's own. */
const SETTINGS = {
  AUDIT_RETENTION_DAYS: '400',
  OUTBOX_RETENTION_DAYS: '14',
  INVITATION_EXPIRY_DAYS: '45',
  DORMANCY_WARN_AFTER_DAYS: '700',
  DORMANCY_DEACTIVATE_AFTER_DAYS: '0',
  DORMANCY_DELETE_AFTER_DAYS: '90',
};

for (const backend of backends) {
  describe(`GET /api/v2/retention on ${backend.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(backend, { env: SETTINGS });
    });
    afterAll(async () => {
      await t?.close();
    });

    it("answers the back office every kind of data kept, with this server's settings and their names, 0 for a step turned off", async () => {
      const answer = await callApi(t, { as: 'backoffice@portail.test', method: 'GET', route: '/api/v2/retention' });
      expect(answer.status).toBe(200);
      expect(answer.body.items).toEqual([
        { kind: 'journal', days: 400, setting: 'AUDIT_RETENTION_DAYS' },
        { kind: 'outbox', days: 14, setting: 'OUTBOX_RETENTION_DAYS' },
        { kind: 'pendingRequests', days: 45, setting: 'INVITATION_EXPIRY_DAYS' },
        { kind: 'bulkActionReports', days: 30, setting: null },
        { kind: 'exports', days: null, setting: null },
        { kind: 'dormancyWarning', days: 700, setting: 'DORMANCY_WARN_AFTER_DAYS' },
        { kind: 'dormancyDeactivation', days: 0, setting: 'DORMANCY_DEACTIVATE_AFTER_DAYS' },
        { kind: 'dormancyDeletion', days: 90, setting: 'DORMANCY_DELETE_AFTER_DAYS' },
        { kind: 'serverLogs', days: null, setting: null },
      ]);
    });

    it('answers the same to a read-only back-office account', async () => {
      const answer = await callApi(t, { as: 'lecteur@portail.test', method: 'GET', route: '/api/v2/retention' });
      expect(answer.status).toBe(200);
      expect(answer.body.items).toHaveLength(9);
    });

    it("refuses an employer administrator with 403 and the back office's message", async () => {
      const answer = await callApi(t, { as: 'admin.clinique@portail.test', method: 'GET', route: '/api/v2/retention' });
      expect(answer.status).toBe(403);
      expect(answer.body.items).toBeUndefined();
    });

    it('answers 401 without a token', async () => {
      const answer = await callApi(t, { as: null, method: 'GET', route: '/api/v2/retention' });
      expect(answer.status).toBe(401);
    });
  });
}
