// searchThroughPool and requestThroughPool (src/opensearch/pool-request.ts) on the real client and
// node: they answer the parsed body, raise the client's own errors (which the logger and
// dependency-errors.ts read), and keep the client's node rules: a node that refuses or answers 503
// is marked dead and the request is retried on the next.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@opensearch-project/opensearch';
import t, { type Test } from 'tap';
import { dependencyFailure } from '../../src/platform/dependency-errors.js';
import { createOpenSearchClient, type OpenSearchClient } from '../../src/opensearch/client.js';
import { requestThroughPool, searchThroughPool } from '../../src/opensearch/pool-request.js';
import { config, runId } from '../helper.js';

const client = createOpenSearchClient(config.OPENSEARCH_URL);
const index = `pool-request-${runId}`;
const clients: OpenSearchClient[] = [client];
t.teardown(async () => {
  await client.indices.delete({ index }, { ignore: [404] });
  await Promise.all(clients.map((c) => c.close()));
});
await client.indices.create({ index });
await client.bulk({ body: [{ index: { _index: index, _id: '1' } }, { name: 'Bäckerei Sonne' }, { index: { _index: index, _id: '2' } }, { name: 'Sonnen Apotheke' }], refresh: 'true' });

type Found = { hits: { total: { value: number }; hits: { _id: string }[] } };
const sonne = JSON.stringify({ query: { match: { name: 'sonne' } } });

/** A client whose first node is `first`, then the real node(s). */
function clientWith(first: string): OpenSearchClient {
  const c = createOpenSearchClient(`${first},${config.OPENSEARCH_URL}`);
  clients.push(c);
  return c;
}

const listening = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** A port nothing listens on: connecting to it is refused. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  const port = await listening(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A stand-in node that answers every request with `answer`, counting them. */
async function fakeNode(t: Test, answer: (res: ServerResponse) => void) {
  const node = { asked: 0, url: '' };
  const server = createServer((_req, res) => {
    node.asked++;
    answer(res);
  });
  t.teardown(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  node.url = `http://127.0.0.1:${await listening(server)}`;
  return node;
}

const deadIds = (c: OpenSearchClient) => (c.connectionPool as unknown as { dead: string[] }).dead;

t.test('answers the parsed body, with the query-string parameters applied', async (t) => {
  const found = await searchThroughPool<Found>(client, { index, body: sonne, params: { filter_path: 'hits.hits._id' } });
  t.same(found, { hits: { hits: [{ _id: '1' }] } }, 'filter_path left out everything else');
});

t.test("a refused query is the client's ResponseError, with status and type", async (t) => {
  const err = (await searchThroughPool(client, { index, body: '{"query":{"no_such_query":{}}}' }).catch((e: unknown) => e)) as { name: string; message: string; meta: { statusCode: number } };
  t.equal(err.name, 'ResponseError');
  t.equal(err.meta.statusCode, 400);
  t.match(err.message, /parsing_exception/);
  t.equal(dependencyFailure(err), undefined, 'a bad query is no failure of OpenSearch');
});

t.test('a missing index is OpenSearch down, as the error handler reads it', async (t) => {
  const err = await searchThroughPool(client, { index: `${index}-missing`, body: sonne }).catch((e: unknown) => e);
  t.equal((err as Error).name, 'ResponseError');
  t.equal(dependencyFailure(err), 'down');
});

t.test('a node that refuses connections is marked dead and the search answered by the next', async (t) => {
  const refused = `http://127.0.0.1:${await refusedPort()}`;
  const c = clientWith(refused);
  for (let i = 0; i < 4; i++) {
    const found = await searchThroughPool<Found>(c, { index, body: sonne });
    t.same(
      found.hits.hits.map((h) => h._id),
      ['1'],
      `search ${i + 1}`,
    );
  }
  t.match(deadIds(c), [new RegExp(refused.replace(/\./g, '\\.'))], 'the refusing node is dead');
});

t.test('a node answering 503 is marked dead and the search retried on the next', async (t) => {
  const busy = await fakeNode(t, (res) => res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"type":"unavailable"},"status":503}'));
  const c = clientWith(busy.url);
  for (let i = 0; i < 4; i++) {
    const found = await searchThroughPool<Found>(c, { index, body: sonne });
    t.equal(found.hits.total.value, 1, `search ${i + 1}`);
  }
  t.equal(busy.asked, 1, 'asked once, then left alone while dead');
  t.equal(deadIds(c).length, 1);
});

t.test('with every node refusing, the search fails as OpenSearch down', async (t) => {
  const c = createOpenSearchClient(`http://127.0.0.1:${await refusedPort()}`);
  clients.push(c);
  const err = await searchThroughPool(c, { index, body: sonne }).catch((e: unknown) => e);
  t.equal((err as Error).name, 'ConnectionError');
  t.equal(dependencyFailure(err), 'down');
});

t.test('a node that stalls half-way through an answer times out, and the next node answers', async (t) => {
  const stalled = await fakeNode(t, (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"hits":');
  });
  const c = new Client({ nodes: [stalled.url, config.OPENSEARCH_URL.split(',')[0]!], requestTimeout: 300, maxRetries: 1 });
  clients.push(c);
  const found = await searchThroughPool<Found>(c, { index, body: sonne });
  t.equal(found.hits.total.value, 1);
  t.equal(stalled.asked, 1);
  t.equal(deadIds(c).length, 1, 'the stalled node is dead');

  const alone = new Client({ node: stalled.url, requestTimeout: 300, maxRetries: 0 });
  clients.push(alone);
  const err = await searchThroughPool(alone, { index, body: sonne }).catch((e: unknown) => e);
  t.equal((err as Error).name, 'TimeoutError');
  t.equal(dependencyFailure(err), 'busy');
});

t.test('an answer that is no JSON object fails without its text in the error', async (t) => {
  const garbled = await fakeNode(t, (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"hits": Sonne Apotheke +4930'));
  const c = new Client({ node: garbled.url, maxRetries: 0 });
  clients.push(c);
  const err = (await searchThroughPool(c, { index, body: sonne }).catch((e: unknown) => e)) as Error & { meta: unknown; data?: unknown };
  t.equal(err.name, 'DeserializationError');
  t.type(err.meta, 'object', 'a client error the logger recognises');
  t.notMatch(JSON.stringify({ ...err, meta: undefined }) + err.message, /Apotheke/, "the answer's text is not carried");
});

t.test('a _bulk of newline-delimited lines is written, as the indexer sends it', async (t) => {
  const lines = `${JSON.stringify({ index: { _index: index, _id: '3', version: 7, version_type: 'external' } })}\n${JSON.stringify({ name: 'Sonne Kiosk' })}\n`;
  const bulk = (body: string) =>
    requestThroughPool<{ errors: boolean; items: Record<string, { status: number }>[] }>(client, {
      path: '/_bulk',
      body,
      contentType: 'application/x-ndjson',
      params: { refresh: 'true', filter_path: 'errors,items.*.status' },
    });
  t.same(await bulk(lines), { errors: false, items: [{ index: { status: 201 } }] });
  const found = await searchThroughPool<Found>(client, { index, body: JSON.stringify({ query: { match: { name: 'kiosk' } } }) });
  t.same(
    found.hits.hits.map((h) => h._id),
    ['3'],
    'searchable',
  );
  t.same(await bulk(lines), { errors: true, items: [{ index: { status: 409 } }] }, 'the same version again is refused as stale');
});

t.test("a request's own deadline replaces the client's, and its error carries no body", async (t) => {
  const stalled = await fakeNode(t, (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"took":');
  });
  const c = new Client({ node: stalled.url, requestTimeout: 30_000, maxRetries: 0 });
  clients.push(c);
  const started = Date.now();
  const err = (await requestThroughPool(c, { path: '/_bulk', body: '{"index":{"_index":"x"}}\n{"name":"Sonne Kiosk"}\n', contentType: 'application/x-ndjson', timeoutMs: 200 }).catch(
    (e: unknown) => e,
  )) as Error & { meta: unknown };
  t.equal(err.name, 'TimeoutError');
  t.ok(Date.now() - started < 10_000, "within the request's deadline, not the client's 30 s");
  t.notMatch(JSON.stringify(err.meta), /Kiosk/, 'the documents sent are not carried');
});

t.test("a _bulk refused as a whole is the client's ResponseError, without the documents sent", async (t) => {
  const err = (await requestThroughPool(client, { path: '/_bulk', body: `${JSON.stringify({ name: 'Sonne Kiosk' })}\n`, contentType: 'application/x-ndjson' }).catch((e: unknown) => e)) as Error & {
    meta: { statusCode: number; meta: { request: unknown } };
  };
  t.equal(err.name, 'ResponseError');
  t.equal(err.meta.statusCode, 400);
  t.match(err.meta.meta.request, { params: { method: 'POST', path: '/_bulk' } }, 'the request is named');
  t.notMatch(JSON.stringify(err.meta.meta.request), /Kiosk/, 'but its documents are not carried');
});
