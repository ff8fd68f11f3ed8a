import { describe, expect, it } from 'vitest';
import {
  emailSchema,
  jobTitleSchema,
  optionalPhoneSchema,
  personNameSchema,
  postalCodeSchema,
  rejectionReasonSchema,
  requiredPhoneSchema,
  sirenSchema,
  siretSchema,
  fieldErrorsOf,
  personalDetailsSchema,
} from '../../rules/validation';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) => (result.success ? null : result.error!.issues[0]!.message);

describe('spec §5 field rules', () => {
  it('accepts emails of letters, digits, dot, percent, underscore, hyphen and refuses others', () => {
    for (const ok of ['jean.dupont@clinique-tilleuls.fr', 'a_b%c-d@x.io', 'X1@sub.domain.org']) expect(emailSchema.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['jean@', '@x.fr', 'jean@x.f', 'jean dupont@x.fr', 'jean+tag@x.fr', 'jean@x']) expect(messageOf(emailSchema.safeParse(bad)), bad).toBe('Adresse email invalide');
  });

  it('accepts accented names with spaces, hyphens and apostrophes, refuses digits and 1 character', () => {
    for (const ok of ['Éloïse', "N'Diaye", 'Jean-François', 'Le Gall', 'Saint-Étienne']) expect(personNameSchema.safeParse(ok).success, ok).toBe(true);
    expect(messageOf(personNameSchema.safeParse('A'))).toBe('Minimum 2 caractères requis');
    expect(messageOf(personNameSchema.safeParse('R2D2'))).toBe('Seules les lettres, espaces, tirets et apostrophes sont autorisés');
  });

  it('accepts French phones in +33 and 0 forms with spaces, and an empty optional phone', () => {
    for (const ok of ['0612345678', '06 12 34 56 78', '+33612345678', '+33 6 12 34 56 78', '']) expect(optionalPhoneSchema.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['0012345678', '061234567', '+3306123456789', '+44612345678']) expect(messageOf(optionalPhoneSchema.safeParse(bad)), bad).toBe('Numéro de téléphone français invalide');
    expect(messageOf(requiredPhoneSchema.safeParse(' '))).toBe('Le téléphone est requis');
  });

  it('takes job titles of 2 to 100 allowed characters', () => {
    expect(messageOf(jobTitleSchema.safeParse('A'))).toBe('Minimum 2 caractères requis');
    expect(jobTitleSchema.safeParse('RH').success).toBe(true);
    expect(jobTitleSchema.safeParse('x'.repeat(100)).success).toBe(true);
    expect(messageOf(jobTitleSchema.safeParse('x'.repeat(101)))).toBe('Maximum 100 caractères');
    expect(jobTitleSchema.safeParse("Responsable RH & paie / site d'Angers. 2").success).toBe(true);
    expect(messageOf(jobTitleSchema.safeParse('Chef <script>'))).toBe('Caractères non autorisés détectés');
  });

  it('wants postal codes of 5 digits', () => {
    expect(postalCodeSchema.safeParse('75001').success).toBe(true);
    for (const bad of ['7500', '750011', '75O01']) expect(messageOf(postalCodeSchema.safeParse(bad)), bad).toBe('Le code postal doit contenir 5 chiffres');
  });

  it('refuses a rejection reason of 9 characters after trimming and counts them, accepts 10', () => {
    expect(messageOf(rejectionReasonSchema.safeParse('   '))).toBe('Le motif du rejet est obligatoire');
    expect(messageOf(rejectionReasonSchema.safeParse('  123456789  '))).toBe('Le motif doit contenir au moins 10 caractères (9/10)');
    expect(rejectionReasonSchema.safeParse(' 1234567890 ').data).toBe('1234567890');
  });

  it('checks SIREN and SIRET keys', () => {
    expect(sirenSchema.safeParse('732829320').success).toBe(true);
    expect(sirenSchema.safeParse('732829321').success).toBe(false);
    expect(siretSchema.safeParse('73282932000074').success).toBe(true);
    expect(siretSchema.safeParse('73282932000075').success).toBe(false);
  });

  it('names every failing field once', () => {
    const result = personalDetailsSchema.safeParse({ firstName: 'A', lastName: 'Martin', email: 'x', jobTitle: 'RH', phoneNumber: '', mobilePhone: '', street: '', postalCode: '75001', city: 'Paris' });
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error!, 'body').map((f) => f.field)).toEqual(['body.firstName', 'body.email', 'body.street']);
  });
});
