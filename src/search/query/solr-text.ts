// Splits a Solr-mode text (`what`, `where`) into exact phrases (in double quotes) and free terms.
export interface SolrText {
  phrases: string[];
  terms: string[];
}

export function parseSolrText(text: string): SolrText {
  const phrases: string[] = [];
  const rest = text.replace(/"([^"]*)"/g, (_, phrase: string) => {
    if (phrase.trim()) phrases.push(phrase.trim());
    return ' ';
  });
  // An unpaired quote is taken literally as a separator, never as syntax.
  const terms = rest.replace(/"/g, ' ').split(/\s+/).filter(Boolean);
  return { phrases, terms };
}
