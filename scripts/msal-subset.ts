// A Vite plugin that builds MSAL (@azure/msal-browser, pinned in package.json) without the flows the portal
// never uses, so that they are not in the JavaScript downloaded before the first screen: the popup flows
// (loginPopup, acquireTokenPopup, logoutPopup: the portal signs in by redirect), the platform broker
// (WAM / the Microsoft extension: `system.allowPlatformBroker` stays false) and acquireTokenByCode (hybrid
// SPA). Each module is replaced by one that keeps its exports and throws if it is ever reached; MSAL only
// reaches them through those APIs or options. About 50 kB of minified code, 12 kB gzipped.
import type { Plugin } from 'vite';

const MSAL_DIST = '/node_modules/@azure/msal-browser/dist/';

const unavailable = (what: string) =>
  `throw new Error(${JSON.stringify(`MSAL ${what} is not part of this build (scripts/msal-subset.ts): the portal signs in by redirect.`)});`;

/** Module (relative to MSAL's dist/) → its replacement, with the same exports. */
export const MSAL_REPLACED_MODULES: Record<string, string> = {
  'interaction_client/PopupClient.mjs': `export class PopupClient { constructor() { ${unavailable('popup sign-in')} } }`,
  'interaction_client/SilentAuthCodeClient.mjs': `export class SilentAuthCodeClient { constructor() { ${unavailable('acquireTokenByCode')} } }`,
  'interaction_client/PlatformAuthInteractionClient.mjs': `export class PlatformAuthInteractionClient { constructor() { ${unavailable('platform broker')} } }`,
  // Same answers as MSAL's own for allowPlatformBroker: false (no provider, never allowed); a clear error otherwise.
  'broker/nativeBroker/PlatformAuthProvider.mjs': `
    export async function isPlatformBrokerAvailable() { return false; }
    export async function getPlatformAuthProvider() { ${unavailable('platform broker')} }
    export function isPlatformAuthAllowed(config) {
      if (config.system.allowPlatformBroker || config.experimental?.allowPlatformBrokerWithDOM) { ${unavailable('platform broker')} }
      return false;
    }`,
};

export function msalSubset(): Plugin {
  const replaced = new Set<string>();
  let msalSeen = false;
  return {
    name: 'portail:msal-subset',
    enforce: 'pre',
    apply: 'build',
    load(id) {
      const path = id.split('?')[0]!.replaceAll('\\', '/');
      const at = path.lastIndexOf(MSAL_DIST);
      if (at < 0) return null;
      msalSeen = true;
      const module = path.slice(at + MSAL_DIST.length);
      const code = MSAL_REPLACED_MODULES[module];
      if (code === undefined) return null;
      replaced.add(module);
      return { code, map: null };
    },
    buildEnd(error) {
      if (error || !msalSeen) return;
      // An MSAL upgrade that moves these modules must not silently bring them back.
      const missing = Object.keys(MSAL_REPLACED_MODULES).filter((m) => !replaced.has(m));
      if (missing.length) this.error(`msal-subset: MSAL no longer loads ${missing.join(', ')}; update scripts/msal-subset.ts.`);
    },
  };
}
