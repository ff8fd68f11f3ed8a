import { LogLevel, ProtocolMode, PublicClientApplication, ResponseMode } from '@azure/msal-browser';
import type { AppConfig } from '../app-config';
import { REDIRECT_BRIDGE_PATH } from './sign-in-paths';

/** MSAL's instance, not yet initialized. Loaded apart from the shell (src/main.tsx loadMsal). */
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
