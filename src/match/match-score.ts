// The match score: a logistic model over the signals (docs/partners/match.md). Each
// signal adds its evidence to the log-odds; a signal that cannot be judged adds nothing, so a
// missing field neither helps nor hurts. Weights live in match-defaults.ts.
import { MATCH_DEFAULTS } from './match-defaults.js';
import type { MatchSignals } from './match-signals.js';

const { model, nameGate } = MATCH_DEFAULTS;

/** Linear interpolation between the points of `curve` (sorted by x), flat outside them. */
export function piecewise(curve: readonly (readonly [number, number])[], x: number): number {
  const first = curve[0]!;
  const last = curve[curve.length - 1]!;
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < curve.length; i++) {
    const [x1, y1] = curve[i]!;
    const [x0, y0] = curve[i - 1]!;
    if (x <= x1) return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
  }
  return last[1];
}

/** Each signal's contribution to the log-odds (0 for a signal that is null). */
export function contributions(signals: MatchSignals) {
  return {
    name: model.name.weight * (signals.name - model.name.neutral),
    address: signals.address === null ? 0 : model.address.weight * signals.addressCoverage * (signals.address - model.address.neutral),
    phone: signals.phone === null ? 0 : signals.phone ? model.phone.same : model.phone.different,
    website: signals.website === null ? 0 : signals.website ? model.website.same : model.website.different,
    distance: signals.distance_km === null ? 0 : piecewise(model.distance, signals.distance_km),
  };
}

/** The score 0–1 (unrounded): the probability the model gives that the candidate is the business meant. */
export function matchScore(signals: MatchSignals): number {
  const logit = Object.values(contributions(signals)).reduce((sum, c) => sum + c, model.bias);
  const probability = 1 / (1 + Math.exp(-logit));
  // The same business has (nearly) the same name: whatever else agrees, another name is no match.
  return signals.name < nameGate.below ? Math.min(probability, nameGate.maxScore) : probability;
}
