// Shards and replicas from configuration, on the real OpenSearch: an index is created with them,
// `setup` changes replicas on the live index (applyReplicas) and rebuilds an index only for a new
// shard count (listingsIndicesToRebuild). Indices of a prefix of their own, dropped afterwards.
import t from 'tap';
import { createOpenSearchClient } from '../../src/opensearch/client.js';
import { indexNames } from '../../src/opensearch/index-definitions.js';
import { applyReplicas, dropListingsIndices, ensureListingsIndices, listingsIndicesToRebuild } from '../../src/opensearch/index-setup.js';
import { config, runId } from '../helper.js';

const client = createOpenSearchClient(config.OPENSEARCH_URL);
const prefix = `layout-${runId}-`;
const alias = indexNames(prefix).listingsAlias('de');
const noListings = async () => 0;
t.teardown(async () => {
  await dropListingsIndices(client, prefix);
  await client.close();
});

async function layoutOf(name: string) {
  const res = await client.indices.getSettings({ index: name });
  const [index] = Object.values(res.body as Record<string, { settings: { index: { number_of_shards: string; number_of_replicas: string } } }>);
  return { shards: Number(index!.settings.index.number_of_shards), replicas: Number(index!.settings.index.number_of_replicas) };
}

t.test('a listings index is created with the configured shards and replicas', async (t) => {
  const created = await ensureListingsIndices(client, prefix, ['de'], { shards: 2, replicas: 0 });
  t.equal(created.length, 1, 'created');
  t.same(await layoutOf(alias), { shards: 2, replicas: 0 });
});

t.test('other replicas are set on the live index, without a rebuild', async (t) => {
  t.same(await listingsIndicesToRebuild(client, prefix, ['de'], { shards: 2, replicas: 1 }, noListings), [], 'no rebuild for replicas');
  t.equal((await applyReplicas(client, [alias, `${prefix}no-such-alias`], 1)).length, 1, 'the index is changed; a missing alias is skipped');
  t.same(await layoutOf(alias), { shards: 2, replicas: 1 });
  t.same(await applyReplicas(client, [alias], 1), [], 'nothing to change the second time');
  t.equal((await applyReplicas(client, [alias], 0)).length, 1, 'and back');
  t.same(await layoutOf(alias), { shards: 2, replicas: 0 });
});

t.test('another shard count asks for a rebuild of the index', async (t) => {
  const rebuild = await listingsIndicesToRebuild(client, prefix, ['de'], { shards: 3, replicas: 0 }, noListings);
  t.same(
    rebuild.map((r) => r.country),
    ['de'],
  );
  t.match(rebuild[0]!.reason, /shard count/);
});
