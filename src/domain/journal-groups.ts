// The journal's filter of kinds of change: the groups people choose from, as the URL names them. The route's
// search validator needs only these names (they load with the first screen); the API's actions behind each
// group are journal.ts's, loaded with the journal.

export const JOURNAL_ACTION_GROUP_KEYS = [
  'creation',
  'modification',
  'email',
  'roles',
  'deactivation',
  'reactivation',
  'dormancyEnd',
  'deletion',
  'invitationResent',
  'requestCreated',
  'requestApproved',
  'requestRejected',
  'requestClosed',
  'export',
  'personalData',
] as const;

export type JournalActionGroup = (typeof JOURNAL_ACTION_GROUP_KEYS)[number];
