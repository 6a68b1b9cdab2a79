// Requests sent through the client's connection pool instead of its `Transport.request`: every
// search the service sends, and the indexer's `_bulk`.
//
// `Transport.request` (client 3.9.0) gives every answer a `warnings` getter of its own, and the
// request's whole scope stays reachable through it until the next full collection; every young
// collection until then copies it, which grows the young generation and lengthens its pauses:
// the one-connection tail of a search (docs/performance.md, docs/architecture.md "The read
// path"). These requests need none of what that method adds on top of the pool (serialising a
// body object, compression, streams, events), so they take a node from the client's own pool,
// send through the client's own `Connection`, and keep its rules: the pool's node selection and
// resurrection, a node that refuses, times out or answers 502-504 marked dead and the request
// retried on the next (`maxRetries`; a `_bulk` sent twice writes nothing twice, its external
// versions refuse the second: the actions the first had written answer 409, counted stale), its
// timeout (here over the whole answer), and failures raised as the client's own error classes,
// which dependency-errors.ts turns into 503s. Index set-up and the operators' commands still go
// through the client.
import type { IncomingMessage } from 'node:http';
import { errors, type ApiResponse, type Client } from '@opensearch-project/opensearch';

/** A request to the cluster, its body ready as text. */
export interface PoolRequest {
  /** The path, its index names encoded (`/listings-de/_search`, `/_bulk`). */
  path: string;
  /** The body: JSON text, or newline-delimited JSON lines with `contentType` saying so. */
  body: string;
  /** Query-string parameters (preference, filter_path). */
  params?: Record<string, string>;
  /** `application/json` unless given. */
  contentType?: string;
  /** The deadline over the whole answer; the client's `requestTimeout` unless given. */
  timeoutMs?: number;
}

/** A search: its index or alias, the query as JSON text, and the query-string parameters of `_search`. */
export type PoolSearch = { index: string } & Pick<PoolRequest, 'body' | 'params'>;

type Connection = NonNullable<ReturnType<Client['transport']['getConnection']>>;

/** What the errors tell of the request sent: never its body (a query, or a `_bulk`'s documents). */
type SentRequest = { method: string; path: string; querystring: string };

/** What one node answered: its status, headers and body text. */
interface NodeAnswer {
  statusCode: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/** Statuses of a node or proxy in trouble, as the client's transport reads them: try another node. */
const NODE_TROUBLE = new Set([502, 503, 504]);

/** The parsed body of a `_search` answer; a failure is one of the client's errors. */
export function searchThroughPool<B extends object>(client: Client, search: PoolSearch): Promise<B> {
  return requestThroughPool<B>(client, { path: `/${encodeURIComponent(search.index)}/_search`, body: search.body, params: search.params });
}

/** The parsed body of the answer to a POST of `sent`; a failure is one of the client's errors. */
export async function requestThroughPool<B extends object>(client: Client, sent: PoolRequest): Promise<B> {
  const { answer, connection, request, attempt } = await answerThroughPool(client, sent);
  const body = parsed(answer);
  if (typeof body !== 'object' || body === null) throw unreadable('the answer is no JSON object', connection, request, attempt, answer);
  return body as B;
}

/**
 * The JSON text of the answer to a POST of `sent`, unparsed, for a caller that may pass it on as it
 * came (the analysts' door); a failure is one of the client's errors, as above.
 */
export async function requestTextThroughPool(client: Client, sent: PoolRequest): Promise<string> {
  const { answer, connection, request, attempt } = await answerThroughPool(client, sent);
  if (!isJson(answer)) throw unreadable('the answer is no JSON', connection, request, attempt, answer);
  return answer.text;
}

/** A successful answer to `sent`, from the first node that gives one; a refusal is a ResponseError. */
async function answerThroughPool(client: Client, sent: PoolRequest) {
  const { transport } = client;
  const request = {
    method: 'POST',
    path: sent.path,
    querystring: sent.params === undefined ? '' : new URLSearchParams(sent.params).toString(),
    body: sent.body,
    headers: {
      // The client's user-agent, and nothing that asks for a compressed answer: it is read as text.
      'user-agent': (transport as unknown as { headers: Record<string, string> }).headers['user-agent'],
      'content-type': sent.contentType ?? 'application/json',
      'content-length': String(Buffer.byteLength(sent.body)),
    },
    timeout: sent.timeoutMs ?? transport.requestTimeout,
  };
  for (let attempt = 0; ; attempt++) {
    // The id names the request in the log of a sniff it may start, only.
    const connection = transport.getConnection({ requestId: 'pool-request' });
    if (connection === null) throw new errors.NoLivingConnectionsError('There are no living connections', clientAnswer(null, request, attempt));
    let answer: NodeAnswer;
    try {
      answer = await exchange(connection, request);
    } catch (err) {
      client.connectionPool.markDead(connection);
      if (attempt < transport.maxRetries) continue;
      // The client's own error carries the request sent, query text included: replaced.
      (err as { meta?: unknown }).meta = clientAnswer(connection, request, attempt);
      throw err;
    }
    if (NODE_TROUBLE.has(answer.statusCode)) {
      client.connectionPool.markDead(connection);
      if (attempt < transport.maxRetries) continue;
    } else {
      client.connectionPool.markAlive(connection);
    }
    if (answer.statusCode >= 400) throw new errors.ResponseError(clientAnswer(connection, request, attempt, answer, parsed(answer)));
    return { answer, connection, request, attempt };
  }
}

/** One request to one node; a connection failure or a timeout rejects. */
function exchange(connection: Connection, request: Parameters<Connection['request']>[0] & { timeout: number }): Promise<NodeAnswer> {
  return new Promise((resolve, reject) => {
    let response: IncomingMessage | null = null;
    let sent: ReturnType<Connection['request']> | undefined;
    // The connection's own timeout ends when the answer's headers arrive; this one covers the
    // body too, so a node that stalls half-way through an answer cannot hold a request for ever.
    // Set before the request, which may fail at once (before it returns), so that its end clears it.
    const deadline = setTimeout(() => {
      settle(new errors.TimeoutError('Request timed out', undefined as never));
      (response ?? sent)?.destroy();
    }, request.timeout);
    const settle = (err: Error | null, answer?: NodeAnswer) => {
      clearTimeout(deadline);
      if (err) reject(err);
      else resolve(answer!);
    };
    sent = connection.request(request, (err, res) => {
      if (err !== null || res === null) return settle(err ?? new errors.ConnectionError('no response', undefined as never));
      response = res;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => settle(null, { statusCode: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', (e) => settle(new errors.ConnectionError(e.message, undefined as never)));
      res.on('aborted', () => settle(new errors.ConnectionError('Response aborted while reading the body', undefined as never)));
    });
  });
}

/** Whether the node says its answer is JSON, and it holds any. */
const isJson = (answer: NodeAnswer) => answer.headers['content-type']?.includes('json') === true && answer.text !== '';

/** The body as JSON when the node says it is, as text otherwise (a proxy's error page); undefined if broken. */
function parsed(answer: NodeAnswer): unknown {
  if (!isJson(answer)) return answer.text;
  try {
    return JSON.parse(answer.text);
  } catch {
    return undefined;
  }
}

/** An answer that is no JSON object: the client's error for it, without the text (names, phones). */
function unreadable(message: string, connection: Connection, request: SentRequest, attempts: number, answer: NodeAnswer) {
  const err = new errors.DeserializationError(message, undefined as never);
  (err as { meta?: unknown }).meta = clientAnswer(connection, request, attempts, answer);
  return err;
}

/**
 * What the client's errors carry as `meta`: its answer, with the request sent but not its body
 * (the logger and dependency-errors.ts read the status and the error type from it): never the
 * query or the documents.
 */
function clientAnswer(connection: Connection | null, request: SentRequest, attempts: number, answer?: NodeAnswer, body?: unknown) {
  return {
    body: body ?? null,
    statusCode: answer?.statusCode ?? null,
    headers: answer?.headers ?? null,
    warnings: null,
    meta: {
      context: null,
      name: 'opensearch-js',
      connection,
      attempts,
      aborted: false,
      request: { params: { method: request.method, path: request.path, querystring: request.querystring }, options: {}, id: 0 },
    },
  } as unknown as ApiResponse;
}
