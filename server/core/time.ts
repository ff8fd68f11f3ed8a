// Lengths of time in milliseconds, for the server's date arithmetic (periods, cut-offs, retention).
export const DAY_MS = 24 * 3600_000;

/** The moment `days` days before `now`. */
export const daysBefore = (now: Date, days: number): Date => new Date(now.getTime() - days * DAY_MS);
