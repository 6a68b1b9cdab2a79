// The forms the match model compares: names without legal forms and connectors, streets with
// "Str." spelled out, phones as E.164, websites as a bare host. Pure functions, shared by the
// candidate search (match-query.ts) and the scoring (match-signals.ts).
import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';
import { splitAddress } from '../listings/split-address.js';
import { fold } from '../search/fold.js';
import { isOptionalWord, searchWords } from '../search/words.js';

/**
 * The words that name the business: folded, legal forms and connectors dropped ("Müller GmbH &
 * Co. KG" and "Mueller" are the same name), unless the name is nothing else ("GmbH & Co. KG").
 */
export function nameTokens(name: string): string[] {
  const words = searchWords(name);
  const core = words.filter((word) => !isOptionalWord(word));
  return core.length ? core : words;
}

// "Str."/"str." as a word or at the end of a compound ("Hauptstr.", "Berliner Str.", "Goethe-Str"),
// after folding, so that "straße" has already become "strasse".
const STREET_ABBREVIATION = /str(?:\.|(?=\s|-|$))/g;

/** A folded street with "str." written out: "Hauptstr." and "Hauptstraße" both give "hauptstrasse". */
export function expandStreet(street: string): string {
  return fold(street).replace(STREET_ABBREVIATION, 'strasse').replace(/\s+/g, ' ').trim();
}

/** The street as the model compares it: expanded, spaces and hyphens dropped ("Berliner-Str." = "Berliner Straße"). */
export const streetKey = (street: string) => expandStreet(street).replace(/[^\p{L}\p{N}]+/gu, '');

/** The spellings of a street the index may hold in `internal.street_fold` (folded as written): as given, spelled out, abbreviated. */
export function streetSpellings(street: string): string[] {
  const expanded = expandStreet(street);
  const abbreviated = expanded.replace(/strasse\b/g, 'str.');
  return [...new Set([fold(street), expanded, abbreviated, abbreviated.replace(/str\./g, 'str')])].filter(Boolean);
}

export interface AddressForm {
  street: string;
  number: string;
}

/** Street (compare key) and house number (folded, no spaces: "12 a" = "12a") of an address. */
export function addressForm(address: string): AddressForm {
  const { street, number } = splitAddress(address);
  return { street: streetKey(street), number: fold(number).replace(/\s+/g, '') };
}

/**
 * A phone as E.164, read in the numbering plan of `country` when national ("030 1234567" in `de`
 * gives "+49301234567"); null when it holds no number at all.
 */
export function normalisePhone(phone: string, country: string): string | null {
  const region = country.toUpperCase();
  const parsed = parsePhoneNumberFromString(phone.trim(), isSupportedCountry(region) ? region : undefined);
  if (parsed) return parsed.number;
  const digits = phone.replace(/[^\d+]/g, '');
  return /^\+[1-9]\d{1,14}$/.test(digits) ? digits : null;
}

/** The host of a website, lower case, without "www.": "https://www.Example.com/about" gives "example.com". */
export function websiteHost(website: string): string | null {
  const text = website.trim();
  if (!text) return null;
  try {
    const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`).hostname.toLowerCase();
    return host.replace(/^www\d?\./, '').replace(/\.$/, '') || null;
  } catch {
    return null;
  }
}
