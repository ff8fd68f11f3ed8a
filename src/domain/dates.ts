/**
 * Dates as people in France read them: day/month/year, 24 h, Europe/Paris whatever the device's zone.
 *
 * Worked out by hand rather than with Intl.DateTimeFormat: a page's first Intl date format sets up ICU's calendars
 * and time zones, 40 to 150 ms of a phone's main thread during the first screen (issue 18, measured at Lighthouse's
 * 4× slowdown). Paris is UTC+1, and UTC+2 from the last Sunday of March to the last Sunday of October at 01:00 UTC
 * (the EU rule since 1996); outside the years where that rule is known to hold, Intl answers.
 */
const HOUR_MS = 3_600_000;

/** The last Sunday of a month (0-based) at 01:00 UTC, in ms. */
function lastSundayAt1Utc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0, 1);
  return lastDay - new Date(lastDay).getUTCDay() * 24 * HOUR_MS;
}

const two = (n: number) => String(n).padStart(2, '0');

function format(iso: string | null | undefined, withTime: boolean): string | null {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  if (year < 1996 || year > 2099) {
    return new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: withTime ? 'short' : undefined, timeZone: 'Europe/Paris' }).format(date);
  }
  const t = date.getTime();
  const summer = t >= lastSundayAt1Utc(year, 2) && t < lastSundayAt1Utc(year, 9);
  // Paris's wall clock, read through the UTC fields.
  const wall = new Date(t + (summer ? 2 : 1) * HOUR_MS);
  const day = `${two(wall.getUTCDate())}/${two(wall.getUTCMonth() + 1)}/${wall.getUTCFullYear()}`;
  return withTime ? `${day} ${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}` : day;
}

export const formatDateTime = (iso: string | null | undefined): string | null => format(iso, true);
export const formatDate = (iso: string | null | undefined): string | null => format(iso, false);
