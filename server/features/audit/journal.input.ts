// The journal's filters (GET /api/v2/audit): the query turned into a checked filter, 400 naming each wrong field.
import { invalid, type FieldError } from '../../core/errors.ts';
import type { AuditAction } from '../../db/schema.ts';
import { searchable } from './audit.model.ts';

/** Every kind of entry, in the order the journal's action filter offers them. */
export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.roles',
  'user.deactivate',
  'user.reactivate',
  'user.delete',
  'user.email.request',
  'user.email.confirm',
  'user.invitation.resend',
  'user.dormancy.end',
  'invitation.create',
  'invitation.approve',
  'invitation.reject',
  'invitation.cancel',
  'invitation.expire',
  'users.export',
  'journal.export',
  'personal-data.exported',
] as const satisfies readonly AuditAction[];

// Every AuditAction is listed: a new one fails the type check here until it is.
type Missing = Exclude<AuditAction, (typeof AUDIT_ACTIONS)[number]>;
const allListed: Missing extends never ? true : Missing = true;
void allListed;

export interface JournalQuery {
  userId?: string | undefined;
  organizationId?: string | undefined;
  action?: string | undefined;
  actorId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  search?: string | undefined;
}

export interface JournalFilter {
  /** Entries about this user (the person concerned). */
  userId?: string | undefined;
  /** Entries concerning this organization (a SIREN: its SIRETs' too); resolved and checked by the service. */
  organizationId?: string | undefined;
  actions?: readonly AuditAction[] | undefined;
  /** The author. */
  actorId?: string | undefined;
  /** From this instant (midnight Europe/Paris of `from`), inclusive. */
  since?: Date | undefined;
  /** Before this instant (midnight Europe/Paris of the day after `to`), exclusive. */
  until?: Date | undefined;
  /** Normalized (audit.model.ts searchable); a substring of the entry's search text. */
  search?: string | undefined;
}

export const JOURNAL_MESSAGES = {
  unknownAction: (action: string) => `Action inconnue : ${action}.`,
  badDate: 'Date invalide (AAAA-MM-JJ).',
  toBeforeFrom: 'La date de fin doit être postérieure ou égale à la date de début.',
};

const PARIS = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Milliseconds Paris is ahead of UTC at this instant (3 600 000 in winter, 7 200 000 in summer). */
function parisOffset(instant: number): number {
  const parts = Object.fromEntries(PARIS.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** Midnight in Paris of a day 'YYYY-MM-DD' (plus `days`), as an instant; null when the text is no real day. */
export function parisMidnight(day: string, days = 0): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = Date.UTC(year, month - 1, date);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  const wall = utc + days * 86_400_000;
  const guess = wall - parisOffset(wall);
  return new Date(wall - parisOffset(guess));
}

/** The query's filters, checked: every wrong field named at once. */
export function journalFilterOf(query: JournalQuery): JournalFilter {
  const errors: FieldError[] = [];
  let actions: AuditAction[] | undefined;
  if (query.action !== undefined && query.action !== '') {
    const known = new Set<string>(AUDIT_ACTIONS);
    const asked = [...new Set(query.action.split(','))];
    const unknown = asked.filter((a) => !known.has(a));
    if (unknown.length > 0) errors.push({ field: 'query.action', message: JOURNAL_MESSAGES.unknownAction(unknown.join(', ')) });
    actions = asked.filter((a) => known.has(a)) as AuditAction[];
  }
  const since = query.from ? parisMidnight(query.from) : undefined;
  const until = query.to ? parisMidnight(query.to, 1) : undefined;
  if (since === null) errors.push({ field: 'query.from', message: JOURNAL_MESSAGES.badDate });
  if (until === null) errors.push({ field: 'query.to', message: JOURNAL_MESSAGES.badDate });
  if (query.from && query.to && since && until && query.to < query.from) errors.push({ field: 'query.to', message: JOURNAL_MESSAGES.toBeforeFrom });
  if (errors.length > 0) throw invalid(errors);
  const search = query.search ? searchable(query.search) : '';
  return {
    userId: query.userId,
    organizationId: query.organizationId,
    actions,
    actorId: query.actorId,
    since: since ?? undefined,
    until: until ?? undefined,
    search: search.length > 0 ? search : undefined,
  };
}
