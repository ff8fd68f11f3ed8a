// The time from the last keystroke of a search on /utilisateurs to the table showing its result, measured in
// the page: an input listener (the keystroke changing the text, which starts the debounce) and a
// MutationObserver on the screen's <main> note performance.now(); the table counts as updated at the first
// mutation after which <main> reads as it does once everything has settled, and at the animation frame that
// follows it (the frame that paints it).
import type { Page } from '@playwright/test';

/** Spec §2: the list's search waits 500 ms after the last change. */
export const SEARCH_DEBOUNCE_MS = 500;
const SEARCH_BOX = 'Rechercher par nom ou email...';

export interface SearchSample {
  term: string;
  /** Last keystroke to the DOM update, minus the debounce (ms). */
  domMs: number;
  /** Last keystroke to the next animation frame after the DOM update, minus the debounce (ms). */
  frameMs: number;
  /** The API call of that search: request start to response end, as the browser saw it (ms). */
  apiMs: number | null;
  /** From the end of the debounce to the start of that API call: the URL update, the router, React (ms). */
  beforeApiMs: number | null;
  /** From the API's answer to the DOM update: parsing, the query cache, React rendering the rows (ms). */
  afterApiMs: number | null;
  /** The list's total after the search ('Affichage 1-10 sur N utilisateurs'), as text. */
  summary: string;
}

interface PageProbe {
  lastKeystroke: number;
  records: { t: number; frame: number; text: string }[];
}

declare global {
  interface Window {
    __searchProbe?: PageProbe;
  }
}

/** The list's API call for that search text. */
const isSearchCall = (term: string) => (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname === '/api/v2/users' && parsed.searchParams.get('search') === term;
};

/** <main> has not changed for 250 ms (React has rendered what the last answer brought). */
async function quiet(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const probe = window.__searchProbe;
      const last = probe?.records.at(-1)?.t ?? 0;
      return performance.now() - last > 250;
    },
    undefined,
    { polling: 50, timeout: 30_000 },
  );
}

/** Types each term into the search of /utilisateurs (a fresh list each time) and measures it. */
export async function measureSearch(page: Page, origin: string, terms: readonly string[]): Promise<SearchSample[]> {
  const samples: SearchSample[] = [];
  for (const term of terms) {
    await page.goto(`${origin}/utilisateurs`);
    const box = page.getByPlaceholder(SEARCH_BOX);
    await box.waitFor();
    await page.getByRole('table').waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => {
      const main = document.querySelector('main');
      if (!main) throw new Error('no <main> on /utilisateurs');
      const probe: PageProbe = { lastKeystroke: 0, records: [] };
      window.__searchProbe = probe;
      document.addEventListener('input', () => (probe.lastKeystroke = performance.now()), true);
      new MutationObserver(() => {
        const record = { t: performance.now(), frame: 0, text: main.textContent ?? '' };
        probe.records.push(record);
        requestAnimationFrame(() => (record.frame = performance.now()));
      }).observe(main, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await quiet(page);
    const answered = page.waitForResponse((answer) => isSearchCall(term)(answer.url()), { timeout: 60_000 });
    await box.click();
    // As a person types: a key every 60 ms.
    await page.keyboard.type(term, { delay: 60 });
    const answer = await answered;
    if (!answer.ok()) throw new Error(`search '${term}': the API answered ${answer.status()}`);
    await quiet(page);
    const result = await page.evaluate((searchTerm) => {
      const probe = window.__searchProbe!;
      const finalText = document.querySelector('main')?.textContent ?? '';
      const api = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/api/v2/users?') && new URL(e.name).searchParams.get('search') === searchTerm)
        .pop() as PerformanceResourceTiming | undefined;
      // The table is updated once <main> reads as it finally does, after the answer has arrived.
      const first = probe.records.find((r) => r.t > Math.max(probe.lastKeystroke, api?.responseEnd ?? 0) && r.text === finalText);
      const summary = /Affichage[^\n]*?utilisateurs|Aucun utilisateur trouvé/.exec(finalText)?.[0] ?? '';
      return {
        lastKeystroke: probe.lastKeystroke,
        t: first?.t ?? null,
        frame: first?.frame ?? null,
        apiStart: api?.startTime ?? null,
        apiEnd: api?.responseEnd ?? null,
        summary,
      };
    }, term);
    if (result.t === null || !result.lastKeystroke) throw new Error(`search '${term}': no update of the table was seen after the last keystroke`);
    samples.push({
      term,
      domMs: result.t - result.lastKeystroke - SEARCH_DEBOUNCE_MS,
      frameMs: (result.frame || result.t) - result.lastKeystroke - SEARCH_DEBOUNCE_MS,
      apiMs: result.apiStart !== null && result.apiEnd !== null ? result.apiEnd - result.apiStart : null,
      beforeApiMs: result.apiStart !== null ? result.apiStart - result.lastKeystroke - SEARCH_DEBOUNCE_MS : null,
      afterApiMs: result.apiEnd !== null ? result.t - result.apiEnd : null,
      summary: result.summary,
    });
  }
  return samples;
}
