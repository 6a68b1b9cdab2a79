// The minimal OpenSearch distribution has no asciifolding or german_normalization filter, so the
// service folds text itself, with this one function, on both sides: in the index document and in
// every query (docs/search.md, "Words, the same on both sides"). "Müller", "Mueller" and
// "MULLER" all become "muller"; "Straße" and "Strasse" become "strasse"; "Köln" and "Koeln"
// become "koln".

// Letters that NFKD does not decompose into a base letter plus marks.
const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
  ı: 'i',
  ĸ: 'k',
};

/**
 * German2 normalisation as Lucene's GermanNormalizationFilter does it: umlauts lose their dots,
 * "ae"/"oe" become a/o, "ue" becomes u unless it follows a vowel or q (so "Quelle", "neue" stay).
 */
function german2(word: string): string {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    const next = word[i + 1];
    const prev = out[out.length - 1];
    if (next === 'e' && (c === 'a' || c === 'o' || (c === 'u' && prev !== undefined && !'aeiouq'.includes(prev)) || (c === 'u' && prev === undefined))) {
      out += c;
      i++;
      continue;
    }
    out += c === 'ä' ? 'a' : c === 'ö' ? 'o' : c === 'ü' ? 'u' : c;
  }
  return out;
}

/** Text without a character outside ASCII, which NFKD and the letter map leave as it is. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every ASCII character, control characters included.
const ASCII = /^[\x00-\x7f]*$/;

/** Lower case without diacritics, letters NFKD keeps whole mapped to their base, spaces collapsed. */
function plain(lower: string): string {
  // Most query words are plain ASCII by here, and a Solr query folds each several times.
  if (ASCII.test(lower)) return lower.replace(/\s+/g, ' ').trim();
  const stripped = lower.normalize('NFKD').replace(/\p{M}/gu, '');
  let out = '';
  for (const ch of stripped) out += SPECIAL_LETTERS[ch] ?? ch;
  return out.replace(/\s+/g, ' ').trim();
}

export function fold(text: string): string {
  // German2 until nothing changes: one pass can make a new pair ("aee" → "ae"), and text folded
  // twice (a query built from folded words) must come out as folded once.
  let word = text.toLowerCase();
  for (let folded = german2(word); folded !== word; folded = german2(word)) word = folded;
  return plain(word);
}

const UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue' };

/**
 * The letters as typed, umlauts written out ("Müller" → "mueller", "Soest" stays "soest"). The
 * typo forms use it beside `fold`: German2 removes the "e" of "oe", "ue" and "ae", so a typo that
 * makes or breaks such a pair ("Hmoe" for "Home", "Msueum" for "Museum") would otherwise count
 * as two edits instead of one.
 */
export function foldSpelledOut(text: string): string {
  return plain(
    text
      .toLowerCase()
      .normalize('NFC')
      .replace(/[äöü]/g, (c) => UMLAUTS[c]!),
  );
}
