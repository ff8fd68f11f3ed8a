// Text PostgreSQL cannot store: U+0000 in text or jsonb, and an unpaired surrogate (JSON's "\ud83d" alone,
// which jsonb refuses: the audit trail and invitations keep texts as jsonb), make a statement fail.
import type { FieldError } from './errors.ts';

export const NUL_CHARACTER_MESSAGE = "Le caractère nul (U+0000) n'est pas autorisé";
export const LONE_SURROGATE_MESSAGE = 'Texte Unicode invalide (demi-caractère UTF-16 isolé)';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text cannot be stored, or null. */
function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return NUL_CHARACTER_MESSAGE;
  return LONE_SURROGATE.test(text) ? LONE_SURROGATE_MESSAGE : null;
}

/** The fields (`where.a.0.b`) of a value holding U+0000 or an unpaired surrogate in a string or in a property name. */
export function nulCharacterErrors(value: unknown, where: string): FieldError[] {
  if (typeof value === 'string') {
    const message = unstorable(value);
    return message ? [{ field: where, message }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => nulCharacterErrors(item, `${where}.${index}`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => {
      const message = unstorable(key);
      return message ? [{ field: where, message }] : nulCharacterErrors(item, `${where}.${key}`);
    });
  }
  return [];
}
