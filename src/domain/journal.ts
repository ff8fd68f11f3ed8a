// The journal's filter of kinds of change: what people choose (a few groups, journal-groups.ts), and the API's actions behind each.
import type { JournalActionGroup } from './journal-groups';

export { JOURNAL_ACTION_GROUP_KEYS, type JournalActionGroup } from './journal-groups';

export const JOURNAL_ACTION_GROUPS: Readonly<Record<JournalActionGroup, readonly string[]>> = {
  creation: ['user.create'],
  modification: ['user.update'],
  email: ['user.email.request', 'user.email.confirm'],
  roles: ['user.roles'],
  deactivation: ['user.deactivate'],
  reactivation: ['user.reactivate'],
  dormancyEnd: ['user.dormancy.end'],
  deletion: ['user.delete'],
  invitationResent: ['user.invitation.resend'],
  requestCreated: ['invitation.create'],
  requestApproved: ['invitation.approve'],
  requestRejected: ['invitation.reject'],
  requestClosed: ['invitation.cancel', 'invitation.expire'],
  export: ['users.export', 'journal.export'],
  personalData: ['personal-data.exported'],
};

/** The `action` parameter of GET /api/v2/audit for a group (none: every kind). */
export const actionsOf = (group: JournalActionGroup | undefined): string | undefined => (group ? JOURNAL_ACTION_GROUPS[group].join(',') : undefined);

/** A day as the API's `from`/`to` take it (YYYY-MM-DD), or nothing for anything else. */
export const isDay = (value: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** Whether a period is one the API accepts: `to` not before `from`. */
export const isPeriodValid = (from: string | undefined, to: string | undefined): boolean => !from || !to || from <= to;
