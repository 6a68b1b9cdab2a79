import t from 'tap';
import { isOptionalWord, joinedCompounds, nameKey, searchWords } from '../../src/search/words.js';

t.test('punctuation is no word: names with &, -, /, . and digits split the same on both sides', async (t) => {
  t.same(searchWords('Steuerberatung Hirzzöttl & Partner'), ['steuerberatung', 'hirzzottl', 'partner']);
  t.same(searchWords('Müller GmbH & Co. KG'), ['muller', 'gmbh', 'co', 'kg']);
  t.same(searchWords('Dr. med. Anna Schäfer'), ['dr', 'med', 'anna', 'schafer']);
  t.same(searchWords('Auto-Service Meier / Söhne'), ['auto', 'service', 'meier', 'sohne']);
  t.same(searchWords('Café 24/7 + Bar · Lounge'), ['cafe', '24', '7', 'bar', 'lounge']);
  t.same(searchWords('& - / + ·'), []);
});

t.test('capitals, umlauts and ß fold alike', async (t) => {
  t.equal(nameKey('STRASSENCAFÉ MÜLLER'), nameKey('Straßencafe Mueller'));
  t.equal(nameKey('Bäckerei Müller GmbH & Co. KG'), 'backerei muller gmbh co kg');
});

t.test('hyphenated compounds are also one word', async (t) => {
  t.same(joinedCompounds('Auto-Service Meier-Schulz 24/7'), ['autoservice', 'meierschulz', '247']);
  t.same(joinedCompounds('Bäckerei Müller'), []);
});

t.test('connectors and legal forms are optional words, the rest is required', async (t) => {
  for (const word of searchWords('und & GmbH & Co. KG e.K. AG')) t.ok(isOptionalWord(word), word);
  t.notOk(isOptionalWord('partner'));
});
