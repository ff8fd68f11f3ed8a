// The search terms npm run bench:web types (issue 20): a deterministic sample spread over the kinds of
// npm run bench:search's terms, drawn from the database at DATABASE_URL; without it (the demo data on a fresh
// PGlite, which only the server can open), from the demo seed's names and employers' domains.
import pg from 'pg';
import { EMPLOYERS, FIRST_NAMES, LAST_NAMES } from '../server/seed/seed-data.ts';
import { checkedNoMatch, readVocabulary } from './search-data.ts';
import { buildTerms, DEFAULT_SEED, noMatchCandidates, sampleTerms, TERM_QUOTAS, type SearchTerm, type Vocabulary } from './search-terms.ts';

/** The demo seed's words, each counted once (its people and their e-mails are not known outside the server). */
export function demoVocabulary(): Vocabulary {
  return {
    firstNames: FIRST_NAMES.map((f) => ({ value: f.name, count: 1 })),
    lastNames: LAST_NAMES.map((value) => ({ value, count: 1 })),
    domains: EMPLOYERS.map((e) => ({ value: e.domain, count: e.sites })),
    people: [],
  };
}

export async function webSearchTerms(databaseUrl: string | null, count: number, seed = DEFAULT_SEED): Promise<SearchTerm[]> {
  if (!databaseUrl) {
    const vocabulary = demoVocabulary();
    return sampleTerms(buildTerms(vocabulary, noMatchCandidates(vocabulary, TERM_QUOTAS['no-match'], seed), seed), count, seed);
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const vocabulary = await readVocabulary(client);
    return sampleTerms(buildTerms(vocabulary, await checkedNoMatch(client, vocabulary, TERM_QUOTAS['no-match'], seed), seed), count, seed);
  } finally {
    await client.end();
  }
}
