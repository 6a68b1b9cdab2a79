// The labelled query set of the relevance benchmark: queries a person would type for listings that
// exist in the data set, each with the listings that count as a right answer. Pure and
// deterministic: the same corpus and seed give the same queries.
import { haversineKm } from '../src/match/geo-distance.js';
import { editDistance } from '../src/match/string-similarity.js';
import { nameKey, searchWords } from '../src/search/words.js';

export interface CorpusListing {
  id: number;
  name: string;
  place: string;
  zip: string;
  lat: number | null;
  lon: number | null;
  categories: string[];
  /** The ids of `categories`, in the same order (the second-round classes judge by id). */
  categoryIds?: string[];
}

export const QUERY_CLASSES = ['exact name', 'one edit', 'two edits', 'transliteration', 'all capitals', 'surname alone', 'what + where, a typo in each', 'category + geo'] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];

export interface LabelledQuery {
  class: QueryClass;
  /** Query parameters of GET /:country/listings?solr=true. */
  params: Record<string, string | number>;
  /** Listings that are a right answer: the target and any listing the query cannot tell from it. */
  relevant: number[];
  /** What was done to the name, for reading failures (`Wurnholzer → Qurnholzer`). */
  note: string;
  /** Sub-group for the breakdown (`first letter` typos, `&` names...). */
  group?: string;
}

/** mulberry32: a small seeded PRNG, so the query set depends on the seed alone. */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
type Random = ReturnType<typeof random>;

// Damerau–Levenshtein distance, to keep only typos of the intended size; the match model's own.
export { editDistance };

const LETTERS = 'abcdefghijklmnopqrstuvwxyzäöü';
export type EditKind = 'replace' | 'drop' | 'add' | 'swap';
const EDITS: EditKind[] = ['replace', 'drop', 'add', 'swap'];

/** One edit of `kind` at `position` (0 = the first letter); keeps the case of the replaced letter. */
export function applyEdit(word: string, kind: EditKind, position: number, rng: Random): string {
  const chars = [...word];
  const i = Math.min(position, chars.length - 1);
  const letter = () => {
    const l = rng.pick([...LETTERS].filter((c) => c !== chars[i]?.toLowerCase()));
    return chars[i] && chars[i] !== chars[i]!.toLowerCase() ? l.toUpperCase() : l;
  };
  switch (kind) {
    case 'replace':
      chars[i] = letter();
      break;
    case 'drop':
      chars.splice(i, 1);
      break;
    case 'add':
      chars.splice(i, 0, letter());
      break;
    case 'swap': {
      const j = i + 1 < chars.length ? i : i - 1;
      [chars[j], chars[j + 1]] = [chars[j + 1]!, chars[j]!];
      break;
    }
  }
  return chars.join('');
}

/** `edits` random edits of a word, at random positions, until it is exactly that many edits away. */
export function typo(word: string, edits: number, rng: Random, firstLetter = false): { word: string; kinds: EditKind[] } {
  for (let attempt = 0; attempt < 50; attempt++) {
    let out = word;
    const kinds: EditKind[] = [];
    for (let e = 0; e < edits; e++) {
      const kind = rng.pick(EDITS);
      const position = firstLetter && e === 0 ? 0 : rng.int(0, [...out].length - 1);
      out = applyEdit(out, kind, position, rng);
      kinds.push(kind);
    }
    if (editDistance(word.toLowerCase(), out.toLowerCase()) === edits) return { word: out, kinds };
  }
  throw new Error(`no ${edits}-edit typo of ${word}`);
}

/** Words of a name as written (with their case and umlauts), letters only. */
const writtenWords = (name: string) => name.split(/[^\p{L}]+/u).filter(Boolean);

/** Replaces the first occurrence of `word` in `text` by `replacement`. */
function replaceWord(text: string, word: string, replacement: string): string {
  const at = text.indexOf(word);
  return at < 0 ? text : text.slice(0, at) + replacement + text.slice(at + word.length);
}

const TRANSLITERATIONS: [RegExp, (m: string) => string, string][] = [
  [/ä|ö|ü/i, (m) => ({ ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' })[m] ?? m, 'umlaut → ae/oe/ue'],
  [/ß/, () => 'ss', 'ß → ss'],
  [/ä/i, (m) => (m === 'ä' ? 'a' : 'A'), 'ä typed as a'],
  [/ae|oe|ue/i, (m) => ({ ae: 'ä', oe: 'ö', ue: 'ü', Ae: 'Ä', Oe: 'Ö', Ue: 'Ü' })[m] ?? m, 'ae/oe/ue → umlaut'],
  [/ss/, () => 'ß', 'ss → ß'],
];

/** Names that a query tests in particular: punctuation, legal forms, titles, digits. */
const NAME_SHAPES: [string, RegExp][] = [
  ['GmbH & Co. KG', /GmbH & Co\. KG/],
  ['&', /&/],
  ['-', /-/],
  ['/', /\//],
  ['Dr.', /\bDr\./],
  ['.', /\./],
  ['digits', /\d/],
];

export function buildQuerySet(corpus: readonly CorpusListing[], opts: { seed: number; perClass: number; categoryWords: ReadonlySet<string> }): LabelledQuery[] {
  const rng = random(opts.seed);
  const byId = new Map(corpus.map((l) => [l.id, l]));
  const byKey = new Map<string, number[]>();
  const wordListings = new Map<string, number[]>();
  for (const l of corpus) {
    const key = nameKey(l.name);
    (byKey.get(key) ?? byKey.set(key, []).get(key)!).push(l.id);
    for (const w of new Set(searchWords(l.name))) {
      const ids = wordListings.get(w) ?? wordListings.set(w, []).get(w)!;
      if (ids.length < 10) ids.push(l.id);
    }
  }
  const sameName = (l: CorpusListing) => byKey.get(nameKey(l.name)) ?? [l.id];
  const sample = (pool: readonly CorpusListing[], n: number) => Array.from({ length: Math.min(n, pool.length * 4) }, () => rng.pick(pool)).slice(0, n);
  const queries: LabelledQuery[] = [];
  const add = (q: LabelledQuery) => queries.push(q);

  // Exact names: half spread over the shapes that break naive tokenising, half at random.
  const shaped = NAME_SHAPES.map(([group, re]) => ({ group, pool: corpus.filter((l) => re.test(l.name)) })).filter((s) => s.pool.length);
  for (const { group, pool } of shaped) {
    for (const l of sample(pool, Math.ceil(opts.perClass / 2 / shaped.length))) add({ class: 'exact name', params: { what: l.name }, relevant: sameName(l), note: l.name, group });
  }
  for (const l of sample(corpus, Math.floor(opts.perClass / 2))) add({ class: 'exact name', params: { what: l.name }, relevant: sameName(l), note: l.name, group: 'any' });

  // Typos: one edit in a word of 4+ letters (a quarter of them on the first letter), two edits in
  // a word of 8+ letters; the rest of the name as written.
  const withWord = (min: number) => corpus.filter((l) => writtenWords(l.name).some((w) => w.length >= min));
  const oneEditPool = withWord(4);
  for (let i = 0; i < opts.perClass; i++) {
    const l = rng.pick(oneEditPool);
    const word = rng.pick(writtenWords(l.name).filter((w) => w.length >= 4));
    const firstLetter = i % 4 === 0;
    const { word: typed, kinds } = typo(word, 1, rng, firstLetter);
    add({
      class: 'one edit',
      params: { what: replaceWord(l.name, word, typed) },
      relevant: sameName(l),
      note: `${word} → ${typed} (${kinds.join(', ')})`,
      group: firstLetter ? 'first letter' : 'any letter',
    });
  }
  const twoEditPool = withWord(8);
  for (const l of sample(twoEditPool, opts.perClass)) {
    const word = rng.pick(writtenWords(l.name).filter((w) => w.length >= 8));
    const { word: typed, kinds } = typo(word, 2, rng);
    add({ class: 'two edits', params: { what: replaceWord(l.name, word, typed) }, relevant: sameName(l), note: `${word} → ${typed} (${kinds.join(', ')})` });
  }

  // Transliteration both ways, one rule per query, spread over the rules that apply.
  for (const [re, replace, group] of TRANSLITERATIONS) {
    const pool = corpus.filter((l) => re.test(l.name));
    for (const l of sample(pool, Math.ceil(opts.perClass / TRANSLITERATIONS.length))) {
      const typed = l.name.replace(new RegExp(re.source, `${re.flags}g`), replace);
      add({ class: 'transliteration', params: { what: typed }, relevant: sameName(l), note: `${l.name} → ${typed}`, group });
    }
  }

  for (const l of sample(corpus, opts.perClass)) add({ class: 'all capitals', params: { what: l.name.toUpperCase() }, relevant: sameName(l), note: l.name.toUpperCase() });

  // A surname alone: a word of 5+ letters that is no category word and that at most three
  // listings carry, so the query names the business (all of those listings count as right).
  const surnamePool = corpus.filter((l) => searchWords(l.name).some((w) => w.length >= 5 && !opts.categoryWords.has(w) && (wordListings.get(w)?.length ?? 0) <= 3));
  for (const l of sample(surnamePool, opts.perClass)) {
    const word = rng.pick(searchWords(l.name).filter((w) => w.length >= 5 && !opts.categoryWords.has(w) && (wordListings.get(w)?.length ?? 0) <= 3));
    const written = writtenWords(l.name).find((w) => searchWords(w)[0] === word) ?? word;
    add({ class: 'surname alone', params: { what: written }, relevant: wordListings.get(word)!, note: `${l.name} → ${written}` });
  }

  // what + where with a typo in each: a name word and a place word of 4+ letters.
  const wherePool = oneEditPool.filter((l) => writtenWords(l.place).some((w) => w.length >= 4));
  for (const l of sample(wherePool, opts.perClass)) {
    const word = rng.pick(writtenWords(l.name).filter((w) => w.length >= 4));
    const placeWord = rng.pick(writtenWords(l.place).filter((w) => w.length >= 4));
    const what = typo(word, 1, rng);
    const where = typo(placeWord, 1, rng);
    const relevant = sameName(l).filter((id) => byId.get(id)?.place === l.place);
    add({
      class: 'what + where, a typo in each',
      params: { what: replaceWord(l.name, word, what.word), where: replaceWord(l.place, placeWord, where.word) },
      relevant,
      note: `${word} → ${what.word}, ${placeWord} → ${where.word}`,
    });
  }

  // Category + geo: a point up to 100 m from a listing; right are the nearest of that category.
  const located = corpus.filter((l) => l.lat !== null && l.lon !== null && l.categories.length);
  const byCategory = new Map<string, CorpusListing[]>();
  for (const l of located) for (const c of l.categories) (byCategory.get(c) ?? byCategory.set(c, []).get(c)!).push(l);
  for (const l of sample(located, opts.perClass)) {
    const category = rng.pick(l.categories);
    const metres = rng.next() * 100;
    const angle = rng.next() * 2 * Math.PI;
    const lat = l.lat! + (metres / 111_200) * Math.cos(angle);
    const lon = l.lon! + (metres / (111_200 * Math.cos((l.lat! * Math.PI) / 180))) * Math.sin(angle);
    const distances = byCategory.get(category)!.map((c) => ({ id: c.id, km: haversineKm(lat, lon, c.lat!, c.lon!) }));
    const nearest = Math.min(...distances.map((d) => d.km));
    add({
      class: 'category + geo',
      params: { category, lat: round(lat), lon: round(lon) },
      relevant: distances.filter((d) => d.km - nearest < 0.001).map((d) => d.id),
      note: `${category} near ${l.name}`,
    });
  }
  return queries;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

export { haversineKm };

/** recall@k and MRR of one class: `ranked` holds the ids each query returned, best first. */
export function score(queries: readonly LabelledQuery[], ranked: readonly (readonly number[])[]) {
  const at = (k: number) => queries.filter((q, i) => ranked[i]!.slice(0, k).some((id) => q.relevant.includes(id))).length / queries.length;
  const mrr =
    queries.reduce((sum, q, i) => {
      const rank = ranked[i]!.findIndex((id) => q.relevant.includes(id));
      return sum + (rank < 0 ? 0 : 1 / (rank + 1));
    }, 0) / queries.length;
  return { n: queries.length, at1: at(1), at10: at(10), at50: at(50), mrr, empty: ranked.filter((r) => r.length === 0).length };
}
