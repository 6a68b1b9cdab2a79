// What the analysts' door logs and counts of an OpenSearch answer (src/analytics/analytics-service.ts):
// its time, whether it timed out, and its total hits. Pure.

export interface AnswerSummary {
  took?: number;
  timedOut?: boolean;
  hits?: number;
}

/** The summary of a parsed answer. */
export function summaryOf(answer: Record<string, unknown>): AnswerSummary {
  return {
    took: typeof answer.took === 'number' ? answer.took : undefined,
    timedOut: typeof answer.timed_out === 'boolean' ? answer.timed_out : undefined,
    hits: (answer.hits as { total?: { value?: number } } | undefined)?.total?.value,
  };
}

/**
 * How a search answer's text begins: OpenSearch writes `took`, `timed_out`, `_shards` and the hits'
 * total first. `_shards` holding anything nested (a shard's failures) does not match.
 */
const SEARCH_ANSWER_HEAD = /^\{"took":(\d+),"timed_out":(true|false),"_shards":\{[^{}]*\},"hits":\{"total":\{"value":(\d+)/;

/**
 * The summary of a search answer's JSON text, read from its head without parsing the rest (an
 * aggregation's answer can be large); a text that begins otherwise is parsed.
 */
export function summaryOfSearchText(text: string): AnswerSummary {
  const head = SEARCH_ANSWER_HEAD.exec(text);
  if (!head) return summaryOf(JSON.parse(text) as Record<string, unknown>);
  return { took: Number(head[1]), timedOut: head[2] === 'true', hits: Number(head[3]) };
}
