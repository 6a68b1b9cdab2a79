// An answer that costs a dependency round trip (a gauge's count, a readiness check), shared: calls
// that arrive while one is in flight wait for it, and its result is reused for `ttlMs` after it
// settles. A burst of scrapes or probes then costs the dependencies one query, not one each.

/** `produce`, called at most once per `ttlMs` and never twice at once; a failure is not kept. */
export function cachedAnswer<T>(ttlMs: number, produce: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  let freshUntil = 0;
  return () => {
    if (current && (freshUntil === Infinity || Date.now() < freshUntil)) return current;
    const answer = produce();
    current = answer;
    freshUntil = Infinity; // in flight: every caller shares it
    answer.then(
      () => {
        if (current === answer) freshUntil = Date.now() + ttlMs;
      },
      () => {
        if (current === answer) current = undefined;
      },
    );
    return answer;
  };
}
