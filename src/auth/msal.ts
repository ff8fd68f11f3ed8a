import { LogLevel, ProtocolMode, PublicClientApplication, ResponseMode } from '@azure/msal-browser';
import type { AppConfig } from '../app-config';

/** Scopes of the sign-in and of the silent token acquisition (spec §2). */
export const SIGN_IN_SCOPES = ['openid', 'email', 'profile', 'offline_access'];

/** The bridge page that receives every redirect answer (MSAL v5). */
export const REDIRECT_BRIDGE_PATH = '/redirect.html';
export const POST_LOGIN_PATH = '/authentication/redirect-login';

export function createMsalInstance(config: AppConfig): PublicClientApplication {
  return new PublicClientApplication({
    auth: {
      clientId: config.auth.clientId,
      authority: config.auth.authority,
      knownAuthorities: config.auth.knownAuthorities,
      redirectUri: `${window.location.origin}${REDIRECT_BRIDGE_PATH}`,
      postLogoutRedirectUri: config.publicSiteUrl,
      OIDCOptions: { responseMode: ResponseMode.FRAGMENT },
    },
    cache: { cacheLocation: 'localStorage' },
    system: {
      protocolMode: config.auth.protocolMode === 'OIDC' ? ProtocolMode.OIDC : ProtocolMode.AAD,
      loggerOptions: { logLevel: LogLevel.Warning, piiLoggingEnabled: false },
    },
  });
}
