// Shards and replicas come from configuration, not from mappings/*.json: the index bodies carry
// them, and the fingerprint that decides a rebuild (index-setup.ts) changes with the shard count
// only, since replicas change on a live index.
import t from 'tap';
import { categoriesIndexBody } from '../../src/opensearch/index-definitions.js';
import { listingsIndexBody } from '../../src/opensearch/index-setup.js';

const fingerprint = (body: ReturnType<typeof listingsIndexBody>) => (body.mappings as { _meta: { fingerprint: string } })._meta.fingerprint;

t.test('the listings index is created with the configured shards and replicas', async (t) => {
  const body = listingsIndexBody({ shards: 2, replicas: 1 });
  t.match(body.settings, { number_of_shards: 2, number_of_replicas: 1, refresh_interval: '1s', 'index.gc_deletes': '1h', 'index.merge_on_flush.enabled': false });
  t.match(listingsIndexBody({ shards: 1, replicas: 0 }, { refresh_interval: '-1' }).settings, { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '-1' });
});

t.test('a new shard count asks for a rebuild; new replicas do not', async (t) => {
  const single = fingerprint(listingsIndexBody({ shards: 1, replicas: 0 }));
  t.equal(fingerprint(listingsIndexBody({ shards: 1, replicas: 2 })), single, 'replicas are applied live');
  t.not(fingerprint(listingsIndexBody({ shards: 2, replicas: 0 })), single, 'shards are fixed at creation');
  t.equal(fingerprint(listingsIndexBody({ shards: 1, replicas: 0 }, { refresh_interval: '-1' })), single, "a reindex's load settings are not part of it");
});

t.test('the categories index keeps one shard and takes the configured replicas', async (t) => {
  t.match(categoriesIndexBody({ shards: 4, replicas: 2 }).settings, { number_of_shards: 1, number_of_replicas: 2 });
});
