// LIKE patterns with the searched text taken literally: its wildcards and backslash escaped (backslash is LIKE's
// default escape). Every search of the portal builds its patterns here. Pure.

/** The text with LIKE's wildcards (% _) and its escape (\) escaped. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A pattern matching `text` anywhere. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
