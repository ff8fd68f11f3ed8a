// What the erasure of a deleted person writes in place of their personal data (issue 23). Pure.
import { searchable } from '../audit/audit.model.ts';

/** What replaces a personal value that is not a name (e-mail, phones, address, job title, free fields). */
export const ERASED_VALUE = '(effacé)';

/** Why the erasure cancels a request still pending that the person made or that names them. */
export const ERASURE_CANCELLATION_REASON = 'La personne concernée a été supprimée.';

/** The body left in a sent e-mail of the person's, kept until the outbox's retention for the delivery's counts. */
export const ERASED_MAIL_BODY = 'Contenu effacé : la personne destinataire a été supprimée.';

/** The author of what the portal does by itself (the dormant accounts' job): no person, this name. */
export const SYSTEM_AUTHOR = { userId: null, email: null, name: 'Système' } as const;

/** The deleted person as the journal names them from now on. */
export function pseudonymOf(number: number): string {
  return `Utilisateur supprimé n° ${number}`;
}

/** Everything the erasure writes for the person numbered `number`. */
export interface Pseudonym {
  number: number;
  /** 'Utilisateur supprimé n° 12': the names the journal and the requests show. */
  name: string;
  /** The same, as the journal's search stores it (audit.model.ts searchable). */
  searchText: string;
  /** Field of a recorded change → what replaces its non-null values (see erase_personal_changes, migration 0023). */
  replacements: Record<string, string>;
}

/**
 * The person's pseudonym. In the entries' values the first and last names read as the pseudonym once put
 * together ('Utilisateur supprimé' 'n° 12'); every other personal field reads '(effacé)', so that a detail
 * still says which field changed without its values.
 */
export function pseudonym(number: number): Pseudonym {
  const name = pseudonymOf(number);
  const erased = Object.fromEntries(ERASED_FIELDS.map((field) => [field, ERASED_VALUE]));
  return { number, name, searchText: searchable(name), replacements: { ...erased, firstName: 'Utilisateur supprimé', lastName: `n° ${number}` } };
}

/** The personal fields entries record about a person (users.model.ts personalFields, the e-mail changes, a request's invitee). */
const ERASED_FIELDS = ['email', 'pendingEmail', 'jobTitle', 'phoneNumber', 'mobilePhone', 'street', 'postalCode', 'city', 'metadata', 'inviteeEmail'] as const;

/**
 * The address that is the person's and that rows elsewhere may hold: their e-mail, lower-case. Not the one awaiting
 * confirmation: typed by them or an administrator, it proves nothing, and the requests and e-mails at that address
 * may be another person's (security review); only the confirmation link's e-mail written for them goes
 * (users-erasure.repository.ts eraseMail).
 */
export function addressesOf(user: { email: string }): string[] {
  return [user.email.toLowerCase()];
}

/**
 * A case-insensitive regular expression (PostgreSQL's ~*, and JavaScript's) matching any of these addresses as
 * written, and only as a whole address: never within a longer one ('ean@x.fr' in 'jean@x.fr' or 'ean@x.fr.com'),
 * which is another person's. A sentence's full stop after the address still ends it.
 */
export function addressesPattern(addresses: readonly string[]): string {
  const alternatives = addresses.map((a) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return `(?<![a-z0-9._%+'-])(?:${alternatives})(?![a-z0-9_-]|[.][a-z0-9])`;
}

/**
 * What names the person in a search recorded with an export's filters (the journal's 'users.export' and
 * 'journal.export' entries): their last name, one of their addresses, or an address's part before '@', folded as
 * the journal's search folds them. A recorded search holding one of these is erased; a shorter part ('yv'),
 * which names nobody in particular, stays.
 */
export function namingTerms(user: { last_name?: string | null }, addresses: readonly string[]): string[] {
  const parts = [user.last_name ?? '', ...addresses, ...addresses.map((a) => a.split('@')[0] ?? '')];
  return [...new Set(parts.map(searchable).filter((t) => t.length >= 3))];
}
