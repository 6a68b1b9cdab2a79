// The race If-Match exists for (docs/contract.md §20): two writers doing read-modify-write on one
// listing at the same time. Each reads the listing and its ETag, adds one to a counter and writes
// it back with If-Match. Without the precondition checked under the row lock, two writes from the
// same version would both apply and one increment would be lost.
import t from 'tap';
import { build, listingInput, runId } from '../helper.js';

// 1 000 read-modify-writes make 2 000 requests: above the default rate limit of a key a minute.
const { app, partner } = await build(t, { config: { RATE_LIMIT_MAX: 1_000_000 } });
const ATTEMPTS = 1000;

t.test('two writers, 1 000 interleaved read-modify-writes with If-Match: no update is lost and every loser answers 412', async (t) => {
  const first = await partner();
  const second = await partner();
  const created = await app.inject({ method: 'POST', url: '/de/listings', headers: first.auth, payload: listingInput({ name: `Race ${runId}`, description: '0' }) });
  const id = created.json().id;
  // Unclaimed, so that both partners may write it.
  await app.inject({ method: 'DELETE', url: `/de/listings/${id}/claim`, headers: first.auth });

  const outcomes = { won: 0, lost: 0, other: [] as string[] };
  async function writer(auth: { authorization: string }, attempts: number) {
    for (let i = 0; i < attempts; i++) {
      const read = await app.inject({ url: `/de/listings/${id}`, headers: auth });
      const next = String(Number(read.json().description) + 1);
      const res = await app.inject({
        method: 'PATCH',
        url: `/de/listings/${id}`,
        headers: { ...auth, 'if-match': read.headers.etag as string },
        payload: { description: next },
      });
      if (res.statusCode === 200) outcomes.won++;
      else if (res.statusCode === 412 && res.json().type === 'precondition_failed') outcomes.lost++;
      else outcomes.other.push(`${res.statusCode} ${res.body}`);
    }
  }
  await Promise.all([writer(first.auth, ATTEMPTS / 2), writer(second.auth, ATTEMPTS / 2)]);

  t.same(outcomes.other, [], 'every write either applied or answered 412');
  t.equal(outcomes.won + outcomes.lost, ATTEMPTS);
  t.ok(outcomes.lost > 0, `the writers did race (${outcomes.lost} answered 412)`);
  const final = (await app.inject({ url: `/de/listings/${id}`, headers: first.auth })).json();
  t.equal(final.description, String(outcomes.won), 'every applied increment is in the listing');
  t.equal(final.version, 2 + outcomes.won, 'created, unclaimed, then one version per applied write');

  // Each applied write's change is in the version after it: the history steps the counter by one.
  const steps: [unknown, unknown][] = [];
  for (let before: number | undefined; ; ) {
    const page = (await app.inject({ url: `/de/listings/${id}/history?limit=100${before ? `&before=${before}` : ''}`, headers: first.auth })).json();
    for (const entry of page.versions) {
      const description = entry.fields.find((f: { field: string }) => f.field === 'description');
      if (description) steps.push([description.from, description.to]);
    }
    if (page.next === undefined) break;
    before = page.next;
  }
  const increments = steps.filter(([from]) => from !== null);
  t.equal(increments.length, outcomes.won);
  t.ok(
    increments.every(([from, to]) => Number(to) === Number(from) + 1),
    'no version skipped a count',
  );
});
