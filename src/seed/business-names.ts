// Names of generated businesses, shaped like the names German directories hold: a trade and a
// surname, legal forms ("GmbH & Co. KG", "e.K."), partnerships with "&", doctors' titles, names
// with hyphens, slashes and digits. Surnames follow a long tail as real ones do: a few common
// ones (faker's list) and many rare ones composed from Alpine syllables ("Wurnholzer",
// "Gschinnwallner"), so that a surname alone can name one business in a million.
import type { Faker } from '@faker-js/faker';

const HEADS = [
  'Wurn',
  'Gschinn',
  'Hirz',
  'Pfarr',
  'Kalch',
  'Stadl',
  'Grub',
  'Brunn',
  'Moos',
  'Eben',
  'Rein',
  'Ober',
  'Unter',
  'Hinter',
  'Ried',
  'Leit',
  'Pichl',
  'Stein',
  'Wald',
  'Bich',
  'Holz',
  'Lind',
  'Aich',
  'Hasl',
  'Kogl',
  'Mair',
  'Hub',
  'Öd',
  'Pöll',
  'Reit',
  'Sulz',
  'Tratt',
  'Wies',
  'Gmein',
  'Kirch',
  'Mühl',
  'Prem',
  'Schaff',
  'Sonn',
  'Tann',
  'Zirb',
  'Fels',
  'Bründl',
  'Lärch',
  'Schnee',
  'Gaß',
  'Rauch',
  'Krumm',
  'Hoch',
  'Tief',
  'Breit',
  'Glock',
  'Weiß',
  'Roß',
  'Fürst',
  'Hüttl',
  'Kräh',
  'Strub',
  'Gröb',
  'Hölzl',
];
const MIDDLES = [
  'er',
  'en',
  'el',
  's',
  'n',
  'l',
  'ham',
  'ing',
  'bach',
  'au',
  'eg',
  'berg',
  'stein',
  'feld',
  'hof',
  'ach',
  'loh',
  'mann',
  'wies',
  'egg',
  'tal',
  'bühl',
  'grub',
  'moos',
  'ried',
  'reut',
  'schlag',
  'wang',
  'weg',
  'brunn',
  'haus',
  'dorf',
];
const TAILS = [
  'holzer',
  'wallner',
  'zöttl',
  'huber',
  'bichler',
  'leitner',
  'moser',
  'reiter',
  'berger',
  'egger',
  'gruber',
  'hofer',
  'lechner',
  'mayr',
  'maier',
  'stätter',
  'bauer',
  'thaler',
  'müller',
  'schmied',
  'brunner',
  'eder',
  'wieser',
  'rieder',
  'kogler',
  'pointner',
  'aigner',
  'lehner',
  'hauser',
  'bacher',
  'graber',
  'steiner',
  'inger',
  'städter',
  'würfl',
  'köfler',
  'ßner',
  'mooser',
  'kofler',
  'rainer',
  'schwaiger',
  'hölzl',
  'wimmer',
  'strasser',
  'lindner',
];

const HEALTH = /^(amenity\/(dentist|doctors|clinic|pharmacy)|healthcare\/)/;

export function createBusinessNames(faker: Faker) {
  // Early entries of each list come up more often: a skewed pick gives common and rare surnames.
  const skewed = <T>(items: readonly T[]) => items[Math.floor(items.length * faker.number.float({ min: 0, max: 1 }) ** 2)]!;
  const rareSurname = () => {
    const head = skewed(HEADS);
    const middle = faker.number.float({ min: 0, max: 1 }) < 0.5 ? skewed(MIDDLES) : '';
    return head + middle + skewed(TAILS);
  };
  const surname = () => (faker.number.float({ min: 0, max: 1 }) < 0.5 ? faker.person.lastName() : rareSurname());
  const first = () => faker.person.firstName();

  return function businessName(trade: string, categoryId: string): string {
    const s = surname();
    const shapes: [number, () => string][] = [
      [26, () => `${trade} ${s}`],
      [8, () => `${s} ${trade}`],
      [10, () => faker.company.name()],
      [5, () => `${trade} ${s} & Partner`],
      [6, () => `${s} GmbH`],
      [4, () => `${trade} ${s} GmbH & Co. KG`],
      [3, () => `${trade} ${s} e.K.`],
      [2, () => `${s} AG`],
      [HEALTH.test(categoryId) ? 12 : 1, () => faker.helpers.arrayElement([`Dr. ${s}`, `Dr. med. ${first()} ${s}`, `${trade} Dr. ${s}`, `Dr. ${first()} ${s} & Dr. ${surname()}`])],
      [4, () => `${trade} am ${faker.helpers.arrayElement(['Markt', 'Bahnhof', 'Rathaus', 'Dom', 'Park', 'Schlossplatz', 'Stadttor'])}`],
      [4, () => faker.helpers.arrayElement([`${trade} ${faker.number.int({ min: 1, max: 99 })}`, `${s} 2000`, `${trade} 24/7`, `${trade} No. ${faker.number.int({ min: 1, max: 12 })}`])],
      [3, () => `${trade}-Service ${s}`],
      [2, () => `${s} / ${surname()}`],
      [5, () => `${first()} ${s}`],
      [3, () => `${s} & ${surname()}`],
      [2, () => `${s} & Söhne`],
    ];
    const total = shapes.reduce((sum, [weight]) => sum + weight, 0);
    let pick = faker.number.float({ min: 0, max: total });
    for (const [weight, make] of shapes) {
      pick -= weight;
      if (pick <= 0) return make();
    }
    return shapes[0]![1]();
  };
}
