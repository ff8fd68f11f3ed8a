// The sign-in's fixed parts, apart from MSAL itself (src/auth/msal.ts) so that importing them does not bring
// MSAL's code into the shell: MSAL loads when first needed (src/machines/session/session.actors.ts).

/** Scopes of the sign-in and of the silent token acquisition (spec §2). */
export const SIGN_IN_SCOPES = ['openid', 'email', 'profile', 'offline_access'];

/** The bridge page that receives every redirect answer (MSAL v5). */
export const REDIRECT_BRIDGE_PATH = '/redirect.html';
export const POST_LOGIN_PATH = '/authentication/redirect-login';
