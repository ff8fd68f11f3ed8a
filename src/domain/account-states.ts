// The states of accounts the users list filters on (listUsers' accountState, openapi.yaml AccountStateFilter): one
// value per state; the select 'État du compte' offers them in this order, after 'Tous'.
export const ACCOUNT_STATES = ['dormant'] as const;

export type AccountStateFilter = (typeof ACCOUNT_STATES)[number];
