import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatDateTime } from '../../src/domain/dates';

// What Intl answers for Paris: the reference the formatter must match, minute for minute.
const intlDateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
const intlDate = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' });

/** The last Sunday of a month at 01:00 UTC, when Paris changes its clocks. */
function lastSundayAt1Utc(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0, 1));
  return last.getTime() - last.getUTCDay() * 86_400_000;
}

describe('dates as read in Paris, without Intl on the first screen (issue 18: its set-up took 40 to 150 ms of a phone\'s main thread)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('loads and formats without creating an Intl.DateTimeFormat', async () => {
    const created = vi.spyOn(Intl, 'DateTimeFormat');
    vi.resetModules();
    const fresh = await import('../../src/domain/dates');
    expect(fresh.formatDateTime('2026-07-01T22:30:00Z')).toBe('02/07/2026 00:30');
    expect(fresh.formatDate('2026-01-15T23:30:00Z')).toBe('16/01/2026');
    expect(created).not.toHaveBeenCalled();
  });

  it('matches Intl around every change of Paris clocks from 1996 to 2099', () => {
    for (let year = 1996; year <= 2099; year++) {
      for (const change of [lastSundayAt1Utc(year, 2), lastSundayAt1Utc(year, 9)]) {
        for (const minutes of [-61, -60, -59, -1, 0, 1, 59, 60, 61, 23 * 60, 24 * 60]) {
          const at = new Date(change + minutes * 60_000);
          expect(formatDateTime(at.toISOString()), at.toISOString()).toBe(intlDateTime.format(at));
          expect(formatDate(at.toISOString()), at.toISOString()).toBe(intlDate.format(at));
        }
      }
    }
  });

  it('matches Intl on days spread over the years, at every quarter hour of the day around midnight', () => {
    for (let day = Date.UTC(1996, 0, 1); day < Date.UTC(2100, 0, 1); day += 37 * 86_400_000 + 17 * 60_000) {
      for (const at of [new Date(day), new Date(day + 22 * 3_600_000 + 45 * 60_000), new Date(day + 23 * 3_600_000 + 15 * 60_000)]) {
        expect(formatDateTime(at.toISOString()), at.toISOString()).toBe(intlDateTime.format(at));
      }
    }
  });

  it('falls back to Intl outside the years whose rule it knows', () => {
    for (const iso of ['1995-09-24T00:30:00Z', '1980-06-01T12:00:00Z', '2150-07-01T12:00:00Z']) {
      expect(formatDateTime(iso)).toBe(intlDateTime.format(new Date(iso)));
    }
  });

  it('answers null for no date or an unreadable one', () => {
    expect(formatDateTime(null)).toBeNull();
    expect(formatDate(undefined)).toBeNull();
    expect(formatDate('pas une date')).toBeNull();
  });
});
