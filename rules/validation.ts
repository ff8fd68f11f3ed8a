import { z } from 'zod';
import { isValidSiren, isValidSiret } from './codes.ts';

// Before any schema is built: no `new Function` probe and no compiled parsers. The portal's CSP (script-src
// 'self') forbids eval, and the browser reports the probe as a violation (Lighthouse: 'Issues were logged');
// the interpreted parsers are fast enough for forms and request bodies, on the server as in the browser.
z.config({ jitless: true });

/**
 * The field rules of spec §5 with their French messages, shared by the SPA's forms and the
 * server's validation: written once.
 */
export const MESSAGES = {
  email: 'Adresse email invalide',
  min2: 'Minimum 2 caractères requis',
  lettersOnly: 'Seules les lettres, espaces, tirets et apostrophes sont autorisés',
  phone: 'Numéro de téléphone français invalide',
  phoneRequired: 'Le téléphone est requis',
  jobTitleMax: 'Maximum 100 caractères',
  jobTitleChars: 'Caractères non autorisés détectés',
  postalCode: 'Le code postal doit contenir 5 chiffres',
  required: 'Ce champ est obligatoire',
  rejectionRequired: 'Le motif du rejet est obligatoire',
  rejectionTooShort: (length: number) => `Le motif doit contenir au moins 10 caractères (${length}/10)`,
  siren: 'Le SIREN doit contenir 9 chiffres et une clé de contrôle valide',
  siret: 'Le SIRET doit contenir 14 chiffres et une clé de contrôle valide',
} as const;

export const REJECTION_REASON_MIN = 10;
export const JOB_TITLE_MAX = 100;

const EMAIL = /^[A-Za-z0-9._%-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
const LETTERS = /^[\p{L}\s'’-]+$/u;
const FRENCH_PHONE = /^(?:\+33|0)[1-9]\d{8}$/;
const JOB_TITLE = /^[\p{L}\p{N}\s'’&./-]+$/u;

export const emailSchema = z.string().trim().regex(EMAIL, MESSAGES.email);

/** First name, last name, city. */
export const personNameSchema = z.string().trim().min(2, MESSAGES.min2).regex(LETTERS, MESSAGES.lettersOnly);

/** A French number, +33 or 0, then 1-9 and 8 digits; spaces ignored. Empty means none (optional in the wizard). */
export const optionalPhoneSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, ''))
  .refine((value) => value === '' || FRENCH_PHONE.test(value), MESSAGES.phone);

export const requiredPhoneSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, ''))
  .refine((value) => value !== '', MESSAGES.phoneRequired)
  .refine((value) => value === '' || FRENCH_PHONE.test(value), MESSAGES.phone);

export const jobTitleSchema = z.string().trim().min(2, MESSAGES.min2).max(JOB_TITLE_MAX, MESSAGES.jobTitleMax).regex(JOB_TITLE, MESSAGES.jobTitleChars);

export const postalCodeSchema = z.string().trim().regex(/^\d{5}$/, MESSAGES.postalCode);

export const streetSchema = z.string().trim().min(1, MESSAGES.required);

/** Spec §5: required, at least 10 characters after trimming, with the live count in the message. */
export const rejectionReasonSchema = z
  .string()
  .transform((value) => value.trim())
  .superRefine((value, ctx) => {
    if (value.length === 0) ctx.addIssue({ code: 'custom', message: MESSAGES.rejectionRequired });
    else if (value.length < REJECTION_REASON_MIN) ctx.addIssue({ code: 'custom', message: MESSAGES.rejectionTooShort(value.length) });
  });

/** Issue 22: the optional reason a requester gives when cancelling a request; blank means none. */
export const CANCELLATION_REASON_MAX = 500;
export const cancellationReasonSchema = z
  .string()
  .transform((value) => value.trim())
  .refine((value) => value.length <= CANCELLATION_REASON_MAX, { message: `Le motif ne peut pas dépasser ${CANCELLATION_REASON_MAX} caractères.` })
  .transform((value) => (value === '' ? null : value));

export const sirenSchema = z.string().refine(isValidSiren, MESSAGES.siren);
export const siretSchema = z.string().refine(isValidSiret, MESSAGES.siret);

/** Step 1 of the creation wizard, and the personal details the server accepts on creation. */
export const personalDetailsSchema = z.object({
  firstName: personNameSchema,
  lastName: personNameSchema,
  email: emailSchema,
  jobTitle: jobTitleSchema,
  phoneNumber: optionalPhoneSchema,
  mobilePhone: optionalPhoneSchema,
  street: streetSchema,
  postalCode: postalCodeSchema,
  city: personNameSchema,
});

export type PersonalDetails = z.infer<typeof personalDetailsSchema>;

/** Field errors as { field, message }, the first message of each field, for API answers and forms. */
export function fieldErrorsOf(error: z.ZodError, prefix = ''): { field: string; message: string }[] {
  const seen = new Set<string>();
  const result: { field: string; message: string }[] = [];
  for (const issue of error.issues) {
    const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (seen.has(field)) continue;
    seen.add(field);
    result.push({ field, message: issue.message });
  }
  return result;
}
