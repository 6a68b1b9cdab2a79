// Small string distances for the match model. Written here rather than taken from a package: the
// two functions are a few lines each, and the model needs them on code points (umlauts, ß).

/** Damerau–Levenshtein distance (optimal string alignment): replace, add, drop, swap neighbours. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[x.length]![y.length]!;
}

/** 1 − distance / longer length: 1 for equal strings, 0.9 for one typo in ten letters; 0 when one is empty. */
export function editSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max([...a].length, [...b].length);
  return longer === 0 ? 1 : Math.max(0, 1 - editDistance(a, b) / longer);
}

/**
 * Similarity of two word lists, 0–1, whatever their order: every word of each side is paired with
 * its most similar word on the other (pairs below `minPair` count 0) and the pairs are averaged
 * over the words of both sides, so that a word only one side has lowers the similarity.
 * `pair` compares two words (edit similarity unless told).
 */
export function tokenSetSimilarity(
  left: readonly string[],
  right: readonly string[],
  { minPair = 0, pair = editSimilarity }: { minPair?: number; pair?: (a: string, b: string) => number } = {},
): number {
  if (left.length === 0 || right.length === 0) return left.length === right.length ? 1 : 0;
  const best = (word: string, others: readonly string[]) => {
    const s = Math.max(...others.map((other) => pair(word, other)));
    return s >= minPair ? s : 0;
  };
  const total = left.reduce((sum, w) => sum + best(w, right), 0) + right.reduce((sum, w) => sum + best(w, left), 0);
  return total / (left.length + right.length);
}
