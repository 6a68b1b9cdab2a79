// An OpenSearch node lost under load (npm run test:cluster: three nodes, two shards with one
// replica each, so every shard has a copy on two nodes). The real API and indexer processes take
// a steady stream of writes while node 3 is stopped and started again; every search meanwhile is
// answered in full; afterwards every acknowledged write is in PostgreSQL and in the index at its
// version, and reconcile finds no difference.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import t from 'tap';
import { assertNothingLost, writeStream } from '../faults/harness.js';
import { build, eventually, listingInput } from '../helper.js';
import { startApiProcess, startIndexerProcess } from '../processes.js';
import { call, processEnv, sleep, stack } from './cluster-env.js';

const WRITES = Number(process.env.CLUSTER_WRITES ?? 1500);
const WRITES_PER_SECOND = 20;
const LOST_NODE = '3';
const API_PORT = 3400;
const INDEXER_PORT = 3401;
const country = 'de';
const baseUrl = `http://127.0.0.1:${API_PORT}`;

const env = processEnv('node-loss');
const { deps, partner } = await build(t, { config: { QUEUE_PREFIX: env.QUEUE_PREFIX! } });
const { auth } = await partner();
const api = await startApiProcess(API_PORT, env);
const indexer = await startIndexerProcess(INDEXER_PORT, env);
t.teardown(async () => {
  await api.stop();
  await indexer.stop();
  await stack('start-node', LOST_NODE); // a failed run must not leave the cluster a node short
});

t.test('node 3 stops and returns while 20 writes/s and searches go on: nothing acknowledged is lost', async (t) => {
  // Listings no write touches: every search for them must find all of them, on whichever nodes
  // their shard copies are left.
  const token = `Knoten${randomUUID().slice(0, 8)}`;
  const fixed: string[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await call(baseUrl, 'POST', `/${country}/listings`, auth, listingInput({ name: `${token} ${i}` }));
    t.equal(res.status, 201, 'a fixed listing is created');
    fixed.push(res.json().id as string);
  }
  const idsSearch = `/${country}/listings?ids=${fixed.join(',')}`;
  await eventually(async () => ((await call(baseUrl, 'GET', idsSearch, auth)).json().numFound === fixed.length ? true : undefined), 30_000, 'the fixed listings to be searchable');

  let nodeDown = false;
  let searching = true;
  const searches = { answered: 0, whileDown: 0, wrong: [] as string[] };
  const searchLoop = (async () => {
    while (searching) {
      for (const path of [idsSearch, `/${country}/listings?solr=true&what=${token}`]) {
        const down = nodeDown;
        const res = await call(baseUrl, 'GET', path, auth).catch((err: Error) => err);
        if (res instanceof Error) searches.wrong.push(`${path}: ${res.message}`);
        else if (res.status !== 200) searches.wrong.push(`${path}: ${res.status} ${res.text}`);
        else if (path === idsSearch && res.json().numFound !== fixed.length) searches.wrong.push(`${path}: numFound ${String(res.json().numFound)} of ${fixed.length}`);
        searches.answered++;
        if (down) searches.whileDown++;
      }
      await sleep(200);
    }
  })();

  // Stopped once 100 writes are in, kept down 15 s, then started again (which takes a while on
  // two cores) while the stream goes on.
  const loseNode = async () => {
    await stack('stop-node', LOST_NODE);
    nodeDown = true;
    await sleep(15_000);
    nodeDown = false;
    await stack('start-node', LOST_NODE);
  };
  let outage: Promise<void> | undefined;
  let writesWhileDown = 0;
  const started = Date.now();
  const { expected, retries } = await writeStream({
    baseUrl: () => baseUrl,
    auth,
    total: WRITES,
    country,
    onProgress: async (done) => {
      if (done === 100) outage = loseNode();
      if (nodeDown) writesWhileDown++;
      // A steady rate: each write waits for its slot.
      await sleep(Math.max(0, started + (done * 1000) / WRITES_PER_SECOND - Date.now()));
    },
  });
  await outage;
  // The returning node's copies recover; green means every shard has both copies again.
  await deps.opensearch.cluster.health({ wait_for_status: 'green', wait_for_nodes: '3', timeout: '180s' }, { requestTimeout: 190_000 });
  searching = false;
  await searchLoop;

  t.ok(writesWhileDown > 0, `${writesWhileDown} writes were acknowledged while node ${LOST_NODE} was down`);
  t.ok(searches.whileDown > 0, `${searches.whileDown} of ${searches.answered} searches ran while node ${LOST_NODE} was down`);
  t.same(searches.wrong, [], 'every search answered 200 with every listing');

  await assertNothingLost(t, deps, country, expected, retries);

  // The ops command agrees: it exits 0 only when it finds no difference.
  const reconcile = await promisify(execFile)('npx', ['tsx', 'src/cli.ts', 'reconcile', country], { env: process.env });
  t.match(reconcile.stdout, / 0 differences/, 'npm run cli -- reconcile reports agreement');
});
