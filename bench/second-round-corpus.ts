// The listings the second-round relevance classes are made from (npm run bench:relevance;
// docs/partners/search.md): names a person would search for with one search box, a category name, a
// compound word or type-ahead, placed among the benchmark's own data set. Pure and deterministic:
// the same seed, taxonomy and places give the same listings. Surnames are built from syllables the
// seed generator does not use, so that each names one business of this corpus.
import { random } from './relevance-queries.js';

export type CorpusGroup = 'one box' | 'category' | 'cluster' | 'compound' | 'split compound';

/** One listing to create: what it is for, and what the queries made from it need to know. */
export interface CorpusSpec {
  /** Its position in the corpus: the marker in its address, found again on a later run. */
  n: number;
  group: CorpusGroup;
  name: string;
  surname: string;
  place: string;
  zip: string;
  latitude: number;
  longitude: number;
  categoryId: string;
  /** Compounds: the two parts of the compound word of the name ("Auto", "Werkstatt"). */
  parts?: [string, string];
  /** One-box pairs: the spec this one repeats in another place. */
  with?: number;
  /** Category clusters: the point the cluster lies around. */
  centre?: { lat: number; lon: number };
}

export interface Taxonomy {
  categories: { id: string; names: Record<string, string> }[];
}

/** A place of the data set, with its coordinates. */
export interface Spot {
  place: string;
  latitude: number;
  longitude: number;
}

const HEADS = [
  'Krümel',
  'Zwirbel',
  'Knöpf',
  'Schnauz',
  'Gaukel',
  'Wichtel',
  'Strunz',
  'Plüsch',
  'Rumpel',
  'Zottel',
  'Bommel',
  'Flausch',
  'Quirl',
  'Tüddel',
  'Schnörk',
  'Murkel',
  'Pimpel',
  'Zausel',
  'Wuschel',
  'Knirps',
  'Brösel',
  'Fummel',
  'Gickel',
  'Kringel',
  'Lümmel',
  'Nuschel',
  'Pummel',
  'Rüschel',
  'Schmunz',
  'Trödel',
];
const MIDDLES = ['', 'en', 'er', 's', 'ham', 'wald', 'feld', 'ing'];
const TAILS = [
  'bach',
  'huber',
  'mayr',
  'egger',
  'inger',
  'hofer',
  'berger',
  'moser',
  'leitner',
  'thaler',
  'wieser',
  'steiner',
  'brunner',
  'gruber',
  'lechner',
  'reiter',
  'bauer',
  'kofler',
  'aigner',
  'rieder',
];
/** Words a business name may start with that name no category, so that only the category names it. */
const NAME_HEADS = ['Salon', 'Studio', 'Atelier', 'Kontor', 'Manufaktur', 'Zentrale', 'Galerie', 'Stube'];
/** Compound words of business names, split into their parts, with the category they belong to. */
export const COMPOUNDS: [string, string, string][] = [
  ['Auto', 'Werkstatt', 'shop/car_repair'],
  ['Fahrrad', 'Laden', 'shop/bicycle'],
  ['Blumen', 'Laden', 'shop/florist'],
  ['Zahn', 'Arztpraxis', 'amenity/dentist'],
  ['Tier', 'Arztpraxis', 'amenity/veterinary'],
  ['Getränke', 'Markt', 'shop/beverages'],
  ['Schuh', 'Haus', 'shop/shoes'],
  ['Möbel', 'Haus', 'shop/furniture'],
  ['Haus', 'Verwaltung', 'office/property_management'],
  ['Wein', 'Handlung', 'shop/wine'],
  ['Eis', 'Café', 'amenity/ice_cream'],
  ['Sport', 'Studio', 'leisure/fitness_centre'],
  ['Kosmetik', 'Studio', 'shop/beauty'],
  ['Steuer', 'Kanzlei', 'office/tax_advisor'],
  ['Reise', 'Büro', 'shop/travel_agency'],
  ['Nagel', 'Studio', 'shop/beauty/nails'],
  ['Foto', 'Studio', 'shop/photo'],
  ['Computer', 'Service', 'shop/computer'],
  ['Hunde', 'Salon', 'shop/pet_grooming'],
  ['Brillen', 'Studio', 'shop/optician'],
  ['Bau', 'Markt', 'shop/doityourself'],
  ['Motorrad', 'Werkstatt', 'shop/motorcycle'],
  ['Spiel', 'Waren', 'shop/toys'],
  ['Back', 'Stube', 'shop/bakery'],
  ['Buch', 'Handlung', 'shop/books'],
  ['Land', 'Metzgerei', 'shop/butcher'],
  ['Stadt', 'Apotheke', 'amenity/pharmacy'],
  ['Hof', 'Bäckerei', 'shop/bakery'],
  ['Herren', 'Friseur', 'shop/hairdresser'],
  ['Kinder', 'Zahnarzt', 'amenity/dentist'],
];

/** How many listings of each group: at least 2 000 in all (bench/RESULTS.md). */
export const GROUP_SIZES = { oneBoxNames: 350, category: 500, categoryOthers: 250, clusters: 12, clusterListings: 12, clusterOthers: 6, compound: 300, splitCompound: 300 };

const KM_PER_DEGREE = 111.2;

/**
 * The corpus. `spots` are places of the data set (the seed generator's), `localName` the country's
 * name of a category; categories whose name is a single word of 5+ letters serve as trades.
 */
export function buildCorpus(opts: { seed: number; taxonomy: Taxonomy; spots: readonly Spot[]; localName: (id: string) => string }): CorpusSpec[] {
  const rng = random(opts.seed * 7919 + 13);
  const surnames = [...new Set(HEADS.flatMap((h) => MIDDLES.flatMap((m) => TAILS.map((t) => `${h}${m}${t}`))))];
  // A shuffled list drawn from without putting back: every surname names one group of listings.
  for (let i = surnames.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [surnames[i], surnames[j]] = [surnames[j]!, surnames[i]!];
  }
  let nextSurname = 0;
  const surname = () => surnames[nextSurname++ % surnames.length]!;
  const known = new Set(opts.taxonomy.categories.map((c) => c.id));
  const trades = opts.taxonomy.categories.filter((c) => /^\p{L}{5,}$/u.test(opts.localName(c.id)));
  const named = opts.taxonomy.categories.filter((c) => /\p{L}{4}/u.test(opts.localName(c.id)));
  const zip = () => String(rng.int(10000, 99999));
  const near = (spot: Spot, maxKm: number) => {
    const km = maxKm * Math.sqrt(rng.next());
    const angle = rng.next() * 2 * Math.PI;
    return {
      latitude: Math.round((spot.latitude + (km / KM_PER_DEGREE) * Math.cos(angle)) * 1e6) / 1e6,
      longitude: Math.round((spot.longitude + (km / (KM_PER_DEGREE * Math.cos((spot.latitude * Math.PI) / 180))) * Math.sin(angle)) * 1e6) / 1e6,
    };
  };
  const specs: CorpusSpec[] = [];
  const add = (spec: Omit<CorpusSpec, 'n' | 'zip'> & { zip?: string }) => specs.push({ n: specs.length, zip: zip(), ...spec });
  const at = (spot: Spot, maxKm: number) => ({ place: spot.place, ...near(spot, maxKm) });

  // One search box: a trade and a surname, the same name in two places.
  for (let i = 0; i < GROUP_SIZES.oneBoxNames; i++) {
    const trade = rng.pick(trades);
    const s = surname();
    const first = rng.pick(opts.spots);
    let second = rng.pick(opts.spots);
    while (second.place === first.place) second = rng.pick(opts.spots);
    const name = `${opts.localName(trade.id)} ${s}`;
    add({ group: 'one box', name, surname: s, ...at(first, 3), categoryId: trade.id });
    add({ group: 'one box', name, surname: s, ...at(second, 3), categoryId: trade.id, with: specs.length - 1 });
  }
  // Category names: a name that lacks the category's word; half the surnames also in another trade.
  for (let i = 0; i < GROUP_SIZES.category; i++) {
    const category = rng.pick(named);
    const s = surname();
    add({ group: 'category', name: `${rng.pick(NAME_HEADS)} ${s}`, surname: s, ...at(rng.pick(opts.spots), 5), categoryId: category.id });
    if (i < GROUP_SIZES.categoryOthers) {
      let other = rng.pick(trades);
      while (other.id === category.id) other = rng.pick(trades);
      add({ group: 'category', name: `${opts.localName(other.id)} ${s}`, surname: s, ...at(rng.pick(opts.spots), 5), categoryId: other.id, with: specs.length - 1 });
    }
  }
  // Clusters: a dozen listings of one category within 2.5 km of a point, and a few of other trades.
  for (let c = 0; c < GROUP_SIZES.clusters; c++) {
    const spot = rng.pick(opts.spots);
    const centre = { lat: spot.latitude, lon: spot.longitude };
    const category = rng.pick(trades);
    for (let i = 0; i < GROUP_SIZES.clusterListings; i++) {
      const s = surname();
      add({ group: 'cluster', name: `${rng.pick(NAME_HEADS)} ${s}`, surname: s, place: spot.place, ...near(spot, 2.5), categoryId: category.id, centre });
    }
    for (let i = 0; i < GROUP_SIZES.clusterOthers; i++) {
      const other = rng.pick(trades);
      const s = surname();
      add({ group: 'cluster', name: `${opts.localName(other.id)} ${s}`, surname: s, place: spot.place, ...near(spot, 2), categoryId: other.id, centre });
    }
  }
  // Compounds written whole ("Autowerkstatt Huber") and split ("Auto Werkstatt Huber").
  for (const [group, count] of [
    ['compound', GROUP_SIZES.compound],
    ['split compound', GROUP_SIZES.splitCompound],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const [head, tail, categoryId] = rng.pick(COMPOUNDS);
      const s = surname();
      const compound = group === 'compound' ? `${head}${tail.toLowerCase()}` : `${head} ${tail}`;
      add({ group, name: `${compound} ${s}`, surname: s, ...at(rng.pick(opts.spots), 5), categoryId: known.has(categoryId) ? categoryId : rng.pick(trades).id, parts: [head, tail] });
    }
  }
  return specs;
}

/** The address that marks a corpus listing, so that a later run with the same seed finds it again. */
export const corpusAddress = (seed: number, n: number) => `Prüfweg ${seed}-${n}`;
