// LIKE patterns with the searched text taken literally: its wildcards and backslash escaped (backslash is LIKE's
// default escape), and the range of the strings a prefix starts (for an index read with parameters). Every search of
// the portal builds its patterns here. Pure.

/** The text with LIKE's wildcards (% _) and its escape (\) escaped. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A pattern matching `text` anywhere. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;

/**
 * The strings starting with `prefix`, as a range PostgreSQL's text_pattern_ops compares byte by byte (UTF-8 keeps the
 * characters' order): from the prefix itself, up to (not including) the first string greater than all of them, the
 * prefix with its last character that can grow grown by one (past the surrogates), or none when no character can. Pure.
 */
export function prefixRange(prefix: string): { from: string; to: string | null } {
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  for (let i = points.length - 1; i >= 0; i--) {
    if (points[i]! < 0x10ffff) {
      const next = points[i]! + 1 === 0xd800 ? 0xe000 : points[i]! + 1;
      return { from: prefix, to: String.fromCodePoint(...points.slice(0, i), next) };
    }
  }
  return { from: prefix, to: null };
}
