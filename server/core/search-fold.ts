// The folding of a search (issue 20): composed (NFC), lower case, the accents of Latin letters dropped, ligatures
// spelt out, the final sigma as any sigma, so
// that 'helene' finds Hélène, 'LEFEVRE' finds Lefèvre and 'oe' finds œ. The mirror of search_fold() in SQL
// (migration 0019), which folds what is searched; a test holds the two equal on every Latin letter. Pure.

const FROM =
  'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžĐđŁłØøĦħı';
const TO =
  'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzddlloohhi';

const PLAIN = new Map([...FROM].map((letter, i) => [letter, TO[i]!]));
const SPELT: Record<string, string> = { œ: 'oe', Œ: 'oe', æ: 'ae', Æ: 'ae', ß: 'ss' };

/** The text as the search compares it. */
export function searchFold(text: string): string {
  let folded = '';
  for (const letter of text.normalize('NFC')) folded += PLAIN.get(letter) ?? letter;
  return folded.toLowerCase().replace(/[œŒæÆß]/g, (letter) => SPELT[letter]!).replaceAll('ς', 'σ');
}

/** The longest term whose total is read from the counts kept by triggers (migration 0019: strings of 1 to 3 characters). */
export const COUNTED_GRAM_LENGTH = 3;

/**
 * The strings of three characters a trigram index knows: letters and digits within a word (one holding a space or
 * a '-' would be read as a word's start or end, among the most common trigrams).
 */
export const isIndexedGram = (gram: string) => /^[\p{L}\p{N}]{3}$/u.test(gram);
