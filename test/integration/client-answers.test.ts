// takeBody (src/opensearch/client.ts) on the real client and node: it hands over the parsed body
// and leaves the answer holding neither it nor what was sent. This checks the client's answer
// shape that takeBody relies on (meta.request.params), so that a client upgrade moving it fails here.
import t from 'tap';
import { createOpenSearchClient, takeBody } from '../../src/opensearch/client.js';
import { config, runId } from '../helper.js';

const client = createOpenSearchClient(config.OPENSEARCH_URL);
const index = `answers-${runId}`;
t.teardown(async () => {
  await client.indices.delete({ index }, { ignore: [404] });
  await client.close();
});

t.test('a _bulk answer and a search answer let go of their bodies', async (t) => {
  await client.indices.create({ index }); // indices are not created by a write (stack.sh)
  const lines = [{ index: { _index: index, _id: '1' } }, { name: 'Bäckerei Sonne' }]; // as the indexer sends them (bulkLines)
  const bulk = await client.bulk({ body: lines, refresh: 'true' });
  const written = takeBody(bulk);
  t.equal(written.errors, false, 'the body is handed over');
  t.equal(bulk.body, null, 'the answer no longer holds it');
  t.equal(bulk.meta.request.params.body, undefined, 'nor the lines sent, as text');
  t.equal(bulk.meta.request.params.bulkBody, undefined, 'or as the objects given');

  const search = await client.search({ index, body: { query: { match: { name: 'sonne' } } } });
  const found = takeBody(search);
  t.same(found.hits.hits.map((hit) => hit._id), ['1']);
  t.equal(search.body, null);
  t.equal(search.meta.request.params.body, undefined);
});
