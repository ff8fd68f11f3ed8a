/**
 * The accessibility statement's settings (issue 23), read at start with the others (config.ts):
 * - ACCESSIBILITY_COMPLIANCE: the level the footer declares, 'non' (default), 'partiellement' or 'totalement'.
 *   RGAA allows 'partiellement' or 'totalement' conforme only once an RGAA audit has measured it; any other
 *   value stops the start;
 * - ACCESSIBILITY_STATEMENT_URL: where the organization publishes its own statement (https); unset, the footer
 *   links to the portal's page /accessibilite;
 * - ACCESSIBILITY_CONTACT_EMAIL: the 'Retour d'information et contact' mailbox (default SUPPORT_EMAIL).
 */
export const ACCESSIBILITY_COMPLIANCE_LEVELS = ['non', 'partiellement', 'totalement'] as const;
export type AccessibilityCompliance = (typeof ACCESSIBILITY_COMPLIANCE_LEVELS)[number];

export interface AccessibilityConfig {
  compliance: AccessibilityCompliance;
  statementUrl: string | null;
  contactEmail: string;
}

type Env = Record<string, string | undefined>;

const readSetting = (env: Env, name: string): string | null => env[name]?.trim() || null;

export function readAccessibility(env: Env, supportEmail: string): AccessibilityConfig {
  const compliance = readSetting(env, 'ACCESSIBILITY_COMPLIANCE') ?? 'non';
  if (!(ACCESSIBILITY_COMPLIANCE_LEVELS as readonly string[]).includes(compliance)) {
    throw new Error(
      `ACCESSIBILITY_COMPLIANCE must be non, partiellement or totalement (got '${compliance}'); partiellement and totalement may only be declared after an RGAA audit`,
    );
  }
  const statementUrl = readSetting(env, 'ACCESSIBILITY_STATEMENT_URL');
  if (statementUrl !== null && !isHttpsUrl(statementUrl)) throw new Error(`ACCESSIBILITY_STATEMENT_URL must be an https URL (got '${statementUrl}')`);
  const contactEmail = readSetting(env, 'ACCESSIBILITY_CONTACT_EMAIL') ?? supportEmail;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contactEmail)) throw new Error(`ACCESSIBILITY_CONTACT_EMAIL must be an e-mail address (got '${contactEmail}')`);
  return { compliance: compliance as AccessibilityCompliance, statementUrl, contactEmail };
}

function isHttpsUrl(text: string): boolean {
  try {
    return new URL(text).protocol === 'https:';
  } catch {
    return false;
  }
}
