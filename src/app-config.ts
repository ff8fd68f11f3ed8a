/**
 * The configuration read at start-up from the server (written into index.html, else /portal-config.json): API base,
 * sign-in client, authorities of the sign-in and password-reset policies, links.
 * Each value names the server setting it comes from, for the error message.
 */
const REQUIRED = {
  apiBase: 'PUBLIC_ORIGIN',
  clientId: 'AUTH_CLIENT_ID',
  authority: 'B2C_SIGN_IN_POLICY',
  memberAreaUrl: 'MEMBER_AREA_URL',
  supportHours: 'SUPPORT_HOURS',
  supportPhone: 'SUPPORT_PHONE',
  supportEmail: 'SUPPORT_EMAIL',
} as const;

export interface AppConfig {
  apiBase: string;
  auth: {
    clientId: string;
    authority: string;
    passwordResetAuthority: string | null;
    knownAuthorities: string[];
    protocolMode: 'AAD' | 'OIDC';
  };
  memberAreaUrl: string;
  publicSiteUrl: string;
  /** Customer relations (help box of /admin-actions): hours from Monday to Friday, phone line, mailbox. */
  support: { hours: string; phone: string; email: string };
  cookieDomain: string | null;
  /** The footer's 'Accessibilité : … conforme' and the statement /accessibilite (ACCESSIBILITY_COMPLIANCE, _STATEMENT_URL, _CONTACT_EMAIL). */
  accessibility: { compliance: AccessibilityCompliance; statementUrl: string | null; contactEmail: string };
}

export type AccessibilityCompliance = 'non' | 'partiellement' | 'totalement';
const COMPLIANCE_LEVELS: readonly unknown[] = ['non', 'partiellement', 'totalement'];

// Checked by hand rather than with zod: this file loads with the first screen, within its budget (scripts/web-bundle.ts).
function invalid(field: string): never {
  throw new Error(`Invalid configuration: ${field}`);
}
function string(value: unknown, field: string): string {
  return typeof value === 'string' ? value : invalid(field);
}
function nullableString(value: unknown, field: string): string | null {
  return value === null ? null : string(value, field);
}
function record(value: unknown, field: string): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : invalid(field);
}

function checkShape(raw: unknown): AppConfig {
  const input = record(raw, 'configuration');
  const auth = record(input.auth, 'auth');
  const support = record(input.support, 'support');
  const accessibility = record(input.accessibility, 'accessibility');
  const protocolMode = auth.protocolMode === 'AAD' || auth.protocolMode === 'OIDC' ? auth.protocolMode : invalid('auth.protocolMode');
  if (!Array.isArray(auth.knownAuthorities)) invalid('auth.knownAuthorities');
  return {
    apiBase: string(input.apiBase, 'apiBase'),
    auth: {
      clientId: string(auth.clientId, 'auth.clientId'),
      authority: string(auth.authority, 'auth.authority'),
      passwordResetAuthority: nullableString(auth.passwordResetAuthority, 'auth.passwordResetAuthority'),
      knownAuthorities: (auth.knownAuthorities as unknown[]).map((a, i) => string(a, `auth.knownAuthorities.${i}`)),
      protocolMode,
    },
    memberAreaUrl: string(input.memberAreaUrl, 'memberAreaUrl'),
    publicSiteUrl: string(input.publicSiteUrl, 'publicSiteUrl'),
    support: { hours: string(support.hours, 'support.hours'), phone: string(support.phone, 'support.phone'), email: string(support.email, 'support.email') },
    cookieDomain: nullableString(input.cookieDomain, 'cookieDomain'),
    accessibility: {
      compliance: COMPLIANCE_LEVELS.includes(accessibility.compliance) ? (accessibility.compliance as AccessibilityCompliance) : invalid('accessibility.compliance'),
      statementUrl: nullableString(accessibility.statementUrl, 'accessibility.statementUrl'),
      contactEmail: string(accessibility.contactEmail, 'accessibility.contactEmail'),
    },
  };
}

export function parseAppConfig(raw: unknown): AppConfig {
  const input = (raw ?? {}) as Record<string, unknown> & { auth?: Record<string, unknown>; support?: Record<string, unknown> };
  const values: Record<keyof typeof REQUIRED, unknown> = {
    apiBase: input.apiBase,
    clientId: input.auth?.clientId,
    authority: input.auth?.authority,
    memberAreaUrl: input.memberAreaUrl,
    supportHours: input.support?.hours,
    supportPhone: input.support?.phone,
    supportEmail: input.support?.email,
  };
  for (const [key, envName] of Object.entries(REQUIRED) as [keyof typeof REQUIRED, string][]) {
    if (typeof values[key] !== 'string' || (values[key] as string).trim() === '') {
      throw new Error(`Missing required environment variable: ${envName}`);
    }
  }
  return checkShape(raw);
}

/** The element of index.html in which the server writes the configuration (server/plugins/web.ts). */
export const STARTUP_CONFIG_ELEMENT_ID = 'portal-config';

/**
 * The configuration the server wrote into the page (no request: issue 18), else GET /portal-config.json (a page
 * served by another server, e.g. Vite's in development).
 */
export async function loadAppConfig(fetchImpl: typeof fetch = fetch, doc: Pick<Document, 'getElementById'> | null = typeof document === 'undefined' ? null : document): Promise<AppConfig> {
  const inline = doc?.getElementById(STARTUP_CONFIG_ELEMENT_ID)?.textContent;
  if (inline) return parseAppConfig(JSON.parse(inline));
  const response = await fetchImpl('/portal-config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`Configuration unavailable (${response.status})`);
  return parseAppConfig(await response.json());
}
