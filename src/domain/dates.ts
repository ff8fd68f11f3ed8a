/**
 * Dates as people in France read them: day/month/year, 24 h, Europe/Paris whatever the device's zone.
 *
 * Worked out by hand rather than with Intl.DateTimeFormat: a page's first Intl date format sets up ICU's calendars
 * and time zones, 40 to 150 ms of a phone's main thread during the first screen (issue 18, measured at Lighthouse's
 * 4× slowdown). Paris is UTC+1, and UTC+2 from the last Sunday of March to the last Sunday of October at 01:00 UTC
 * (the EU rule since 1996); outside the years where that rule is known to hold, Intl answers (created on first use).
 */
const RULE_YEARS = { from: 1996, to: 2099 } as const;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

let intlFallback: { dateTime: Intl.DateTimeFormat; date: Intl.DateTimeFormat } | null = null;
function fallback() {
  return (intlFallback ??= {
    dateTime: new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' }),
    date: new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' }),
  });
}

/** The last Sunday of a month (0-based) at 01:00 UTC, in ms. */
function lastSundayAt1Utc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0, 1);
  return lastDay - new Date(lastDay).getUTCDay() * DAY_MS;
}

/** The moment as Paris's wall clock reads it (its UTC fields), or null outside the rule's years. */
function parisWallClock(date: Date): Date | null {
  const year = date.getUTCFullYear();
  if (year < RULE_YEARS.from || year > RULE_YEARS.to) return null;
  const t = date.getTime();
  const summer = t >= lastSundayAt1Utc(year, 2) && t < lastSundayAt1Utc(year, 9);
  return new Date(t + (summer ? 2 : 1) * HOUR_MS);
}

const two = (n: number) => String(n).padStart(2, '0');
const dayOf = (wall: Date) => `${two(wall.getUTCDate())}/${two(wall.getUTCMonth() + 1)}/${wall.getUTCFullYear()}`;

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDateTime(iso: string | null | undefined): string | null {
  const date = parse(iso);
  if (!date) return null;
  const wall = parisWallClock(date);
  return wall ? `${dayOf(wall)} ${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}` : fallback().dateTime.format(date);
}

export function formatDate(iso: string | null | undefined): string | null {
  const date = parse(iso);
  if (!date) return null;
  const wall = parisWallClock(date);
  return wall ? dayOf(wall) : fallback().date.format(date);
}
