// The labelled queries of the second-round relevance classes (docs/partners/search.md), made from the
// corpus of bench/second-round-corpus.ts, with what counts as a right answer, judged against the
// whole data set. Pure and deterministic: the same corpus and seed give the same queries.
import { nameKey, searchWords } from '../src/search/words.js';
import type { CorpusSpec, Taxonomy } from './second-round-corpus.js';
import { haversineKm, random, typo, type CorpusListing } from './relevance-queries.js';

export const SECOND_ROUND_CLASSES = [
  'one box',
  'category name + surname',
  'category within 3 km',
  'compound suffix',
  'compound split',
  'compound joined',
  'suggest: 60 % of a surname',
  'suggest: a typo in the word before',
  'suggest: 4 letters of a category',
] as const;
export type SecondRoundClass = (typeof SECOND_ROUND_CLASSES)[number];

/** What each class must reach, and how it is judged: a right answer in the top `k`, or ≥ 9 of the top 10 in the category. */
export const SECOND_ROUND_TARGETS: Record<SecondRoundClass, { k: number; target: number; label: string }> = {
  'one box': { k: 10, target: 0.95, label: '@10 ≥ 0.95' },
  'category name + surname': { k: 1, target: 0.95, label: '@1 ≥ 0.95' },
  'category within 3 km': { k: 10, target: 0.95, label: '≥ 9 of the top 10 in the category' },
  'compound suffix': { k: 10, target: 0.95, label: '@10 ≥ 0.95' },
  'compound split': { k: 10, target: 0.95, label: '@10 ≥ 0.95' },
  'compound joined': { k: 10, target: 0.95, label: '@10 ≥ 0.95' },
  'suggest: 60 % of a surname': { k: 5, target: 0.95, label: 'top 5 ≥ 0.95' },
  'suggest: a typo in the word before': { k: 5, target: 0.9, label: 'top 5 ≥ 0.90' },
  'suggest: 4 letters of a category': { k: 5, target: 0.95, label: 'in the suggestions ≥ 0.95' },
};

export interface SecondRoundQuery {
  class: SecondRoundClass;
  /** GET /:country/listings?solr=true or GET /:country/suggest. */
  endpoint: 'solr' | 'suggest';
  params: Record<string, string | number>;
  /** Right answers: listing ids, or (4 letters of a category) the category id. */
  relevant: (number | string)[];
  /** Category within 3 km: the categories a listing of the top 10 must carry one of. */
  inCategory?: string[];
  note: string;
  group?: string;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
const LANGUAGES = ['de', 'de', 'de', 'en', 'fr', 'it'];

/** The ids of the categories whose name, in some language, holds every word of a text. */
export function categoriesNamedBy(taxonomy: Taxonomy): (text: string) => string[] {
  const named = taxonomy.categories.map((c) => ({ id: c.id, names: Object.values(c.names).map((name) => new Set(searchWords(name))) }));
  return (text) => {
    const words = searchWords(text);
    return named.filter((c) => c.names.some((own) => words.every((w) => own.has(w)))).map((c) => c.id);
  };
}

export function buildSecondRoundQueries(opts: {
  seed: number;
  perClass: number;
  specs: readonly CorpusSpec[];
  ids: ReadonlyMap<number, number>;
  corpus: readonly CorpusListing[];
  taxonomy: Taxonomy;
  localName: (id: string) => string;
}): SecondRoundQuery[] {
  const rng = random(opts.seed * 31 + 5);
  const { specs, corpus, taxonomy } = opts;
  const id = (spec: CorpusSpec) => opts.ids.get(spec.n)!;
  const byKey = new Map<string, CorpusListing[]>();
  const bySurname = new Map<string, CorpusListing[]>();
  for (const l of corpus) {
    const key = nameKey(l.name);
    (byKey.get(key) ?? byKey.set(key, []).get(key)!).push(l);
    for (const w of new Set(searchWords(l.name))) (bySurname.get(w) ?? bySurname.set(w, []).get(w)!).push(l);
  }
  const sameName = (spec: CorpusSpec) => (byKey.get(nameKey(spec.name)) ?? []).map((l) => l.id);
  const names = new Map(taxonomy.categories.map((c) => [c.id, c.names]));
  const queries: SecondRoundQuery[] = [];
  const pickFrom = (group: CorpusSpec['group'] | CorpusSpec['group'][], keep: (s: CorpusSpec) => boolean = () => true) => {
    const pool = specs.filter((s) => (Array.isArray(group) ? group : [group]).includes(s.group) && opts.ids.has(s.n) && keep(s));
    return Array.from({ length: Math.min(opts.perClass, pool.length * 2) }, () => rng.pick(pool));
  };

  // One box: name and place (or post code) in `what`; right are the listings of that name there.
  for (const spec of pickFrom('one box')) {
    const variant = rng.int(0, 3);
    const byZip = variant === 3;
    const what = byZip ? `${spec.name} ${spec.zip}` : variant === 2 ? `${spec.place} ${spec.name}` : `${spec.name} ${spec.place}`;
    const relevant = (byKey.get(nameKey(spec.name)) ?? []).filter((l) => (byZip ? l.zip === spec.zip : l.place === spec.place)).map((l) => l.id);
    queries.push({ class: 'one box', endpoint: 'solr', params: { what }, relevant, note: what, group: byZip ? 'post code' : variant === 2 ? 'place first' : 'place last' });
  }

  // A category name, in one of the taxonomy's languages, and the surname of a name that lacks it.
  for (const spec of pickFrom('category', (s) => s.with === undefined)) {
    const language = rng.pick(LANGUAGES);
    const category = names.get(spec.categoryId)?.[language] ?? opts.localName(spec.categoryId);
    const surname = searchWords(spec.surname)[0]!;
    const relevant = (bySurname.get(surname) ?? []).filter((l) => l.categoryIds?.includes(spec.categoryId)).map((l) => l.id);
    queries.push({ class: 'category name + surname', endpoint: 'solr', params: { what: `${category} ${spec.surname}` }, relevant, note: `${spec.name} (${spec.categoryId})`, group: language });
  }

  // A category's name alone near a point with at least ten of its listings within 3 km: the
  // clusters' centres, then points of the data set where that holds.
  const located = corpus.filter((l) => l.lat !== null && l.lon !== null && l.categoryIds?.length);
  const byCategory = new Map<string, CorpusListing[]>();
  for (const l of located) for (const c of l.categoryIds!) (byCategory.get(c) ?? byCategory.set(c, []).get(c)!).push(l);
  const namedBy = categoriesNamedBy(taxonomy);
  const nearQuery = (categoryId: string, lat: number, lon: number, group: string) => {
    const what = opts.localName(categoryId);
    const inCategory = namedBy(what);
    const within = new Set(
      inCategory
        .flatMap((c) => byCategory.get(c) ?? [])
        .filter((l) => haversineKm(lat, lon, l.lat!, l.lon!) <= 3)
        .map((l) => l.id),
    );
    if (within.size < 10) return false;
    queries.push({
      class: 'category within 3 km',
      endpoint: 'solr',
      params: { what, lat: round(lat), lon: round(lon), radius: 3 },
      relevant: [],
      inCategory,
      note: `${what}: ${within.size} within 3 km`,
      group,
    });
    return true;
  };
  // A cluster's first listing is of the cluster's category (second-round-corpus.ts).
  const centres = new Map<string, CorpusSpec>();
  for (const s of specs) if (s.group === 'cluster' && !centres.has(`${s.centre!.lat},${s.centre!.lon}`)) centres.set(`${s.centre!.lat},${s.centre!.lon}`, s);
  let made = 0;
  for (const spec of centres.values()) if (made < opts.perClass && nearQuery(spec.categoryId, spec.centre!.lat, spec.centre!.lon, 'cluster')) made++;
  for (let tries = 0; tries < opts.perClass * 20 && made < opts.perClass; tries++) {
    const l = rng.pick(located);
    const categoryId = rng.pick(l.categoryIds!);
    if (/^\p{L}{5,}$/u.test(opts.localName(categoryId)) && nearQuery(categoryId, l.lat!, l.lon!, 'data set')) made++;
  }

  // Compounds: the head alone, the parts apart (from names written whole), and whole (from names written apart).
  for (const spec of pickFrom('compound')) {
    const [, tail] = spec.parts!;
    queries.push({ class: 'compound suffix', endpoint: 'solr', params: { what: `${tail} ${spec.surname}` }, relevant: sameName(spec), note: spec.name });
  }
  for (const spec of pickFrom('compound')) {
    const [head, tail] = spec.parts!;
    queries.push({ class: 'compound split', endpoint: 'solr', params: { what: `${head} ${tail} ${spec.surname}` }, relevant: sameName(spec), note: spec.name });
  }
  for (const spec of pickFrom('split compound')) {
    const [head, tail] = spec.parts!;
    queries.push({ class: 'compound joined', endpoint: 'solr', params: { what: `${head}${tail.toLowerCase()} ${spec.surname}` }, relevant: sameName(spec), note: spec.name });
  }

  // Type-ahead near the listing (a point up to 1 km away): 60 % of the surname typed, alone or
  // after the name's first word with one typo in it.
  const typed = (s: string) => [...s].slice(0, Math.ceil([...s].length * 0.6)).join('');
  const nearby = (spec: CorpusSpec) => {
    const km = rng.next();
    const angle = rng.next() * 2 * Math.PI;
    return { lat: round(spec.latitude + (km / 111.2) * Math.cos(angle)), lon: round(spec.longitude + (km / (111.2 * Math.cos((spec.latitude * Math.PI) / 180))) * Math.sin(angle)) };
  };
  const named = ['one box', 'category', 'compound', 'split compound'] as const;
  for (const spec of pickFrom([...named])) {
    const q = typed(spec.surname);
    queries.push({ class: 'suggest: 60 % of a surname', endpoint: 'suggest', params: { q, ...nearby(spec) }, relevant: [id(spec), ...sameName(spec)], note: `${spec.name} → ${q}` });
  }
  for (const spec of pickFrom([...named], (s) => [...s.name.split(' ')[0]!].length >= 4)) {
    const first = spec.name.split(' ')[0]!;
    const q = `${typo(first, 1, rng).word} ${typed(spec.surname)}`;
    queries.push({ class: 'suggest: a typo in the word before', endpoint: 'suggest', params: { q, ...nearby(spec) }, relevant: [id(spec), ...sameName(spec)], note: `${spec.name} → ${q}` });
  }
  // The first four letters of a category's name in the country's language.
  const categories = taxonomy.categories.filter((c) => /^\p{L}{4}/u.test(opts.localName(c.id)));
  for (let i = 0; i < opts.perClass; i++) {
    const c = rng.pick(categories);
    const q = [...opts.localName(c.id)].slice(0, 4).join('');
    queries.push({ class: 'suggest: 4 letters of a category', endpoint: 'suggest', params: { q }, relevant: [c.id], note: `${opts.localName(c.id)} → ${q}` });
  }
  return queries;
}

/**
 * Whether a query's answer is right: a right answer in the top k, or (category within 3 km) at
 * least 9 of the top 10 in the category. `categoriesOf` gives the categories of a listing.
 */
export function isRight(q: SecondRoundQuery, answer: readonly (number | string)[], categoriesOf: (id: number) => readonly string[]): boolean {
  if (q.class === 'category within 3 km') {
    const top = answer.slice(0, 10);
    return top.length === 10 && top.filter((l) => categoriesOf(l as number).some((c) => q.inCategory!.includes(c))).length >= 9;
  }
  const { k } = SECOND_ROUND_TARGETS[q.class];
  return answer.slice(0, k).some((a) => q.relevant.includes(a));
}
