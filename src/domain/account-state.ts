// The users list's filter 'État du compte' (OpenAPI AccountState: issue 23's dormant accounts, issue 24's links): its values in the URL and the API.
// The API client's types check them against the contract where the list's query is made (lib/list-queries.ts).

/** The values the filter offers, in its order (a new state of the contract is one more entry here and in fr-lists). */
export const ACCOUNT_STATES = ['dormant', 'invitationNotAccepted', 'setupLinkExpired'] as const;

export type AccountState = (typeof ACCOUNT_STATES)[number];
