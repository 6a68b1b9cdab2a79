// Listings carry street and house number in one `address` string; address search matches them
// separately (docs/contract.md §5), so the service splits them when it builds the index document.
// Two orders occur in our countries: "Hauptstraße 12a" (DE/AT/CH/IT) and "12 Rue de Rivoli" (FR).

export interface SplitAddress {
  street: string;
  number: string;
}

// A house number: digits, optionally followed by a letter or a range/fraction/suffix such as
// "12a", "12 a", "12-14", "12/3", "12 bis", "7b/2", "3-5a", "12A/1". Italian "12/B" and "N. 12" too.
const NUMBER = String.raw`\d+(?:\s?[a-zA-Z](?![a-zA-Z]))?(?:\s?[-/–]\s?\d+(?:\s?[a-zA-Z](?![a-zA-Z]))?|\s?/\s?[a-zA-Z](?![a-zA-Z]))?(?:\s?(?:bis|ter|quater)\b)?`;
const NUMBER_LAST = new RegExp(String.raw`^(.*?\p{L}.*?[^\s,])[\s,]+(?:n(?:r|o)?\.?\s*|nº\s*|no\.?\s*)?(${NUMBER})$`, 'iu');
const NUMBER_FIRST = new RegExp(String.raw`^(${NUMBER})[\s,]+(.*\D.*)$`, 'i');

export function splitAddress(address: string): SplitAddress {
  const text = address.replace(/\s+/g, ' ').trim();
  const last = NUMBER_LAST.exec(text);
  if (last) return { street: last[1]!.replace(/[\s,]+$/, ''), number: last[2]!.replace(/\s+/g, ' ') };
  const first = NUMBER_FIRST.exec(text);
  if (first) return { street: first[2]!.replace(/^[\s,]+/, ''), number: first[1]!.replace(/\s+/g, ' ') };
  return { street: text, number: '' };
}
