// What the portal keeps and for how long ('Durées de conservation', issue 23), from the server's own settings:
// one list for GET /api/v2/retention and the README's table (tests/docs/readme-retention.test.ts).
import type { DormancyConfig, RequestLifecycleConfig } from '../../config.ts';

/** A job's report of an action on many users is deleted this many days after it completed (jobs/bulk-actions-retention.ts). */
export const BULK_ACTIONS_RETENTION_DAYS = 30;

/** The settings the table reads (a part of ServerConfig). */
export interface RetentionSettings {
  auditRetentionDays: number;
  outboxRetentionDays: number;
  requests: Pick<RequestLifecycleConfig, 'expiryDays'>;
  dormancy: DormancyConfig;
}

export type RetentionKind =
  | 'journal'
  | 'outbox'
  | 'pendingRequests'
  | 'bulkActionReports'
  | 'exports'
  | 'dormancyWarning'
  | 'dormancyDeactivation'
  | 'dormancyDeletion'
  | 'serverLogs';

/**
 * One row: `days` the period (0: that step is off), null when the portal keeps nothing (an export's file, the
 * server's logs); `setting` the environment variable that sets it, null when the code fixes it or nothing does.
 */
export interface RetentionItem {
  kind: RetentionKind;
  days: number | null;
  setting: string | null;
}

export function retentionItems(settings: RetentionSettings): RetentionItem[] {
  return [
    { kind: 'journal', days: settings.auditRetentionDays, setting: 'AUDIT_RETENTION_DAYS' },
    { kind: 'outbox', days: settings.outboxRetentionDays, setting: 'OUTBOX_RETENTION_DAYS' },
    { kind: 'pendingRequests', days: settings.requests.expiryDays, setting: 'INVITATION_EXPIRY_DAYS' },
    { kind: 'bulkActionReports', days: BULK_ACTIONS_RETENTION_DAYS, setting: null },
    { kind: 'exports', days: null, setting: null },
    { kind: 'dormancyWarning', days: settings.dormancy.warnAfterDays, setting: 'DORMANCY_WARN_AFTER_DAYS' },
    { kind: 'dormancyDeactivation', days: settings.dormancy.deactivateAfterDays, setting: 'DORMANCY_DEACTIVATE_AFTER_DAYS' },
    { kind: 'dormancyDeletion', days: settings.dormancy.deleteAfterDays, setting: 'DORMANCY_DELETE_AFTER_DAYS' },
    { kind: 'serverLogs', days: null, setting: null },
  ];
}
