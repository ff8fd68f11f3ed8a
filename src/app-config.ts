import { z } from 'zod';

/**
 * The configuration read at start-up from the server (/portal-config.json): API base,
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

const schema = z.object({
  apiBase: z.string(),
  auth: z.object({
    clientId: z.string(),
    authority: z.string(),
    passwordResetAuthority: z.string().nullable(),
    knownAuthorities: z.array(z.string()),
    protocolMode: z.enum(['AAD', 'OIDC']),
  }),
  memberAreaUrl: z.string(),
  publicSiteUrl: z.string(),
  /** Customer relations (help box of /admin-actions): hours from Monday to Friday, phone line, mailbox. */
  support: z.object({ hours: z.string(), phone: z.string(), email: z.string() }),
  cookieDomain: z.string().nullable(),
});

export type AppConfig = z.infer<typeof schema>;

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
  return schema.parse(raw);
}

export async function loadAppConfig(fetchImpl: typeof fetch = fetch): Promise<AppConfig> {
  const response = await fetchImpl('/portal-config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`Configuration unavailable (${response.status})`);
  return parseAppConfig(await response.json());
}
