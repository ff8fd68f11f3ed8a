// Whose organization lists are kept in browser storage (src/api/browser-cache.ts): apart, so that the page's
// start sets it without loading the persisters.
let owner: string | null = null;

/** Whose entries are read and written from now on (the signed-in person's id; null: nobody's, nothing is kept). */
export function setBrowserCacheOwner(userId: string | null): void {
  owner = userId;
}

export const browserCacheOwner = (): string | null => owner;
