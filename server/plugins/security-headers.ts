// The security headers of every answer: the SPA, the API, the errors, the local provider's pages.
import type { ServerConfig } from '../config.ts';

export type HeaderList = readonly (readonly [string, string])[];

export interface SecurityHeaders {
  /** The headers of an answer to a request for this URL (its query is ignored). */
  for(url: string): HeaderList;
}

/**
 * The only page the portal's own pages may frame: MSAL v5's redirect bridge (src/auth/msal.ts). When a
 * refresh token no longer works, acquireTokenSilent falls back to a hidden iframe on the provider's
 * authorize endpoint, which redirects (303) to this page; the bridge then hands the answer to the
 * waiting window. Framing is judged on the page a frame finally shows, not on the redirects before it
 * (HTML's navigation rules; checked with Chromium 156: a 303 carrying 'DENY' to a page allowing 'self'
 * loads), so the local provider's authorize endpoint stays unframable like everything else.
 */
const FRAMABLE_BY_SELF = new Set(['/redirect.html']);

/** A year: browsers keep the https-only rule that long after the last visit. */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

export function securityHeadersFor(config: ServerConfig): SecurityHeaders {
  // 'self' plus the origins of these URLs that are not the portal's own.
  const selfAnd = (...urls: string[]) =>
    ["'self'", ...new Set(urls.map((u) => new URL(u).origin).filter((o) => o !== config.publicOrigin))].join(' ');
  const provider = selfAnd(config.auth.authority);
  const policy = (frameAncestors: string) =>
    [
      "default-src 'self'",
      "script-src 'self'",
      // Inline styles stay allowed: Radix's dialogs and menus (react-remove-scroll-bar) insert <style>
      // elements at run time, and the provider's pages (server/dev-idp/pages.ts) carry theirs inline.
      // No script can be inlined or injected.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `connect-src ${provider}`,
      // The provider's authorize endpoint, in the hidden iframe of a silent renewal.
      `frame-src ${provider}`,
      // A form's redirects count too: the provider's sign-out ends on the public site.
      `form-action ${selfAnd(config.auth.authority, config.publicSiteUrl)}`,
      `frame-ancestors ${frameAncestors}`,
      "base-uri 'self'",
      "object-src 'none'",
    ].join('; ');
  const common: [string, string][] = [
    ['x-content-type-options', 'nosniff'],
    // Not 'no-referrer': a same-origin POST would then carry 'Origin: null', which the provider's token
    // endpoint refuses (it checks the origin of the portal's requests).
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    ['permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
    // The portal signs in by redirect, never in a popup: no other window needs a handle on it.
    ['cross-origin-opener-policy', 'same-origin'],
  ];
  // Without includeSubDomains: whether every host under the portal's domain is served over https is
  // the deployment's decision, not the portal's.
  if (config.publicOrigin.startsWith('https:')) common.push(['strict-transport-security', `max-age=${HSTS_MAX_AGE_SECONDS}`]);
  const unframable: HeaderList = [['content-security-policy', policy("'none'")], ['x-frame-options', 'DENY'], ...common];
  const framableBySelf: HeaderList = [['content-security-policy', policy("'self'")], ['x-frame-options', 'SAMEORIGIN'], ...common];
  return {
    for(url) {
      const pathname = url.split('?', 1)[0] ?? '';
      return FRAMABLE_BY_SELF.has(pathname) ? framableBySelf : unframable;
    },
  };
}
