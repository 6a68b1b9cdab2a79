// What the categories index holds of one category name besides the name itself: the folded name
// (GET /:country/categories matches it whole or with wildcards) and, for type-ahead
// (GET /:country/suggest), the name's words, their one-edit typo forms and their beginnings (edge
// forms), as the listings index holds them for names (docs/search.md "Type-ahead").
import { edgeForms } from '../search/edge-forms.js';
import { fold } from '../search/fold.js';
import { indexedForms } from '../search/typo-variants.js';
import { wordSpellings, writtenWords } from '../search/words.js';

export function categoryInternalFields(name: string) {
  const written = writtenWords(name);
  const words = written.flatMap(wordSpellings);
  const forms = indexedForms(words, { twoEdits: false });
  return {
    name_fold: fold(name),
    name_words: forms.words,
    name_del1: forms.del1,
    name_prefixes: edgeForms(words),
    // A category whose name begins with what was typed comes before one where a later word does.
    lead_prefixes: edgeForms(wordSpellings(written[0] ?? '')),
    // Then shorter names first: "Restaurant" before "Italienisches Restaurant" for "rest".
    name_length: [...name].length,
  };
}
