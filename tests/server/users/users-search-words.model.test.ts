// Where a term is looked for among the users' words and phrases, and how a page of a search is read from them
// (users-search-words.model.ts). Pure.
import { describe, expect, it } from 'vitest';
import { heldFirst, heldPageWay, holdersCountedBy, searchTexts, walkAtMost, wordsPageWay, WORD_SEPARATORS } from '../../../server/features/users/users-search-words.model.ts';

describe('where a term is looked for', () => {
  it('is the words for a term without separator nor digits meeting other characters, whatever else it holds', () => {
    for (const term of ['martin', 'a', 'a%b\\', '42', 'σ', 'jean\tpierre']) expect(searchTexts(term), term).toBe('words');
  });

  it('is the phrases for a term where digits meet other characters: e-mails cut there', () => {
    for (const term of ['dupont2', '2b', 'a1b', 'x9']) expect(searchTexts(term), term).toBe('phrases');
  });

  it("is the phrases for a term with separators but no '@' between two characters, an '@' at either end included", () => {
    for (const term of ['sophie vincent', 'laetitia.roux', 'ehpad-victor-hugo-cambrai.fr', 'jean-', "d'almeida", 'lefevre@', '@orange', '@b@', 'e m']) {
      expect(searchTexts(term), term).toBe('phrases');
    }
  });

  it("is neither for an '@' between two characters (the e-mail parts index) nor for separators only", () => {
    for (const term of ['julien.martin@clinique', 'a@b', '@x@y']) expect(searchTexts(term), term).toBeNull();
    for (const separator of WORD_SEPARATORS) expect(searchTexts(separator.repeat(2)), separator).toBeNull();
    expect(searchTexts('')).toBeNull();
  });
});

describe('the way a page of a term is read', () => {
  const page = { total: 0, everyone: 1_000_000, offset: 0, pageSize: 10, phrases: false };

  it("merges the words' indexes in name and e-mail order, whatever the term's holders' place in that order", () => {
    // A surname whose 25,000 holders sit side by side far down the name order: a walk would read most of the list.
    expect(wordsPageWay({ ...page, sort: 'name', words: [{ word: 'roux', n: 25_000 }, { word: 'leroux', n: 300 }], total: 25_300 })).toBe('merge');
    expect(wordsPageWay({ ...page, sort: 'email', words: [{ word: 'ines', n: 31_000 }], total: 31_000 })).toBe('merge');
  });

  it('walks the list only for words, when that reads several times fewer rows than the merge: a short term most users hold, in many words', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => ({ word: `e${i}`, n: 180 }));
    expect(wordsPageWay({ ...page, sort: 'name', words: many, total: 900_000 })).toBe('walk');
    expect(wordsPageWay({ ...page, sort: 'name', words: many.slice(0, 20), total: 3_600 })).toBe('merge');
    // 'e m' is held by a tenth of the users, all of them at the last names in m: phrases are always merged.
    expect(wordsPageWay({ ...page, phrases: true, sort: 'name', words: many, total: 98_000 })).toBe('merge');
  });

  it('reads every match by last sign-in unless walking that order reads fewer rows, phrases as words', () => {
    expect(wordsPageWay({ ...page, sort: 'lastLogin', words: [{ word: 'kervella', n: 364 }], total: 364 })).toBe('fetch');
    expect(wordsPageWay({ ...page, sort: 'lastLogin', words: [{ word: 'marie', n: 45_000 }], total: 45_000 })).toBe('walk');
    expect(wordsPageWay({ ...page, phrases: true, sort: 'lastLogin', words: [{ word: 'e m', n: 98_000 }], total: 98_000 })).toBe('walk');
    expect(wordsPageWay({ ...page, offset: 20_000, sort: 'lastLogin', words: [{ word: 'marie', n: 45_000 }], total: 45_000 })).toBe('fetch');
  });
});

describe('the walk of a short term, before its words are looked for', () => {
  it('goes further for one or two characters, which no trigram finds the words of, than for three', () => {
    expect(walkAtMost('e')).toBe(1_000);
    expect(walkAtMost('œ')).toBe(1_000);
    expect(walkAtMost('ca')).toBe(1_000);
    expect(walkAtMost('lau')).toBe(100);
  });
});

describe("the way a term's holders are counted once", () => {
  it("probes the other words' holders only when they are many times fewer than all holders: 'marie', not 'petit' nor 'simon' (1M, measured)", () => {
    expect(holdersCountedBy([{ word: 'marie', n: 49_582 }, { word: 'mmarie', n: 533 }])).toBe('probe');
    expect(holdersCountedBy([{ word: 'petit', n: 24_508 }, { word: 'cpetit', n: 4_023 }])).toBe('hash');
    expect(holdersCountedBy([{ word: 'simon', n: 12_830 }, { word: 'msimon', n: 1_351 }])).toBe('hash');
  });

  it("takes a single word's holders from its count, with nothing to probe; hashes no word", () => {
    expect(holdersCountedBy([{ word: 'kervella', n: 1_016 }])).toBe('probe');
    expect(holdersCountedBy([])).toBe('hash');
  });
});

describe('where a search within a role or an account state starts', () => {
  it("starts from a word's holders when at most 40,000 hold it: surnames clustered in name order (1M, measured)", () => {
    expect(heldFirst({ holders: 1_016, everyone: 1_000_000, counted: false })).toBe(true);
    expect(heldFirst({ holders: 12_373, everyone: 1_000_000, counted: false })).toBe(true);
    expect(heldFirst({ holders: 60_255, everyone: 1_000_000, counted: false })).toBe(false);
    expect(heldFirst({ holders: 0, everyone: 1_000_000, counted: false })).toBe(false);
  });

  it('walks the list for a short term many hold, spread along its order; starts from the holders of a rare one', () => {
    expect(heldFirst({ holders: 9_000, everyone: 10_000, counted: true })).toBe(false);
    expect(heldFirst({ holders: 400, everyone: 10_000, counted: true })).toBe(true);
    expect(heldFirst({ holders: 5_000, everyone: 1_000_000, counted: true })).toBe(true);
    expect(heldFirst({ holders: 6_000, everyone: 1_000_000, counted: true })).toBe(false);
  });

  it('never starts from the holders above the bound given', () => {
    expect(heldFirst({ holders: 1, everyone: 1_000_000, counted: false, atMost: 0 })).toBe(false);
  });
});

describe("the page of a search that starts from its words' holders", () => {
  const page = { everyone: 1_000_000, offset: 0, pageSize: 10 };
  it('merges the words in name and e-mail order', () => {
    expect(heldPageWay({ ...page, sort: 'name', holders: 12_373, total: 4_457 })).toBe('merge');
    expect(heldPageWay({ ...page, sort: 'email', holders: 1_016, total: 364 })).toBe('merge');
  });

  it('walks the last sign-in order for a term many pass the filter with, gathers the holders of a rare one (1M, measured)', () => {
    expect(heldPageWay({ ...page, sort: 'lastLogin', holders: 12_373, total: 4_457 })).toBe('walk');
    expect(heldPageWay({ ...page, sort: 'lastLogin', holders: 1_016, total: 364 })).toBe('gather');
    expect(heldPageWay({ ...page, sort: 'lastLogin', holders: 1_016, total: 0 })).toBe('gather');
  });
});
