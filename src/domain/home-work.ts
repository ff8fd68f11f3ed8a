// The Accueil's 'À traiter' (issue 24): from the server's counts, the lines shown, in order; an item at 0 is left out.
// Pure: the screen gives each line its link (src/features/home/home-work.tsx).
/** An item of the Accueil: the list it links to is decided by the screen, from `item`. */
export type HomeWorkItem = 'pendingRequests' | 'longPendingRequests' | 'expiringRequests' | 'setupLinkExpiredUsers' | 'myPendingRequests' | 'invitationNotAcceptedUsers' | 'dormantUsers';

/** The counts of GET /api/v2/home (OpenAPI Home): an item absent is one the person may not open. */
export type HomeCounts = Partial<Record<HomeWorkItem, number>>;

export interface HomeWorkLine {
  item: HomeWorkItem;
  count: number;
  /** A part of the same sentence, linked to its own list (the requests pending for long, within the pending ones). */
  detail?: { item: HomeWorkItem; count: number };
}

const LINE_ORDER: readonly Exclude<HomeWorkItem, 'longPendingRequests'>[] = ['pendingRequests', 'expiringRequests', 'setupLinkExpiredUsers', 'myPendingRequests', 'invitationNotAcceptedUsers', 'dormantUsers'];

export function homeWorkLines(home: HomeCounts): HomeWorkLine[] {
  const lines: HomeWorkLine[] = [];
  for (const item of LINE_ORDER) {
    const count = home[item];
    if (!count) continue;
    const long = item === 'pendingRequests' ? home.longPendingRequests : undefined;
    lines.push(long ? { item, count, detail: { item: 'longPendingRequests', count: long } } : { item, count });
  }
  return lines;
}
