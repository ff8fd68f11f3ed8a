import type { ServerConfig } from './config.ts';

/**
 * What the SPA reads at start-up, written into its page (server/plugins/web.ts) and answered at
 * GET /portal-config.json for a page served elsewhere (Vite in development): one build runs
 * against any identity provider and API host. The SPA validates it and stops
 * with 'Missing required environment variable' when a value is missing.
 */
export function runtimeConfigFor(config: ServerConfig) {
  return {
    apiBase: config.publicOrigin,
    auth: {
      clientId: config.auth.clientId,
      authority: config.auth.authority,
      passwordResetAuthority: config.auth.passwordResetAuthority,
      knownAuthorities: config.auth.knownAuthorities,
      protocolMode: config.auth.protocolMode,
    },
    memberAreaUrl: config.memberAreaUrl,
    publicSiteUrl: config.publicSiteUrl,
    support: config.support,
    cookieDomain: config.cookieDomain,
    /** The footer's 'Accessibilité : …' and the statement page /accessibilite (server/accessibility-config.ts). */
    accessibility: config.accessibility,
  };
}
