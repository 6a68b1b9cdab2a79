// Searches sent through the client's connection pool instead of its `Transport.request`.
//
// `Transport.request` (client 3.9.0) gives every answer a `warnings` getter of its own, and the
// request's whole scope stays reachable through it until the next full collection; every young
// collection until then copies it, which grows the young generation and lengthens its pauses:
// the one-connection tail of a search (bench/RESULTS.md, "The client's answers outlived their
// requests"). A search needs none of what that method adds on top of the pool (serialising a body
// object, compression, streams, events), so searches take a node from the client's own pool, send
// through the client's own `Connection`, and keep its rules: the pool's node selection and
// resurrection, a node that refuses or answers 502-504 marked dead and the search retried on the
// next (`maxRetries`), its timeout, and failures raised as the client's own error classes, which
// dependency-errors.ts turns into 503s.
import type { IncomingMessage } from 'node:http';
import { errors, type ApiResponse, type Client } from '@opensearch-project/opensearch';

export interface PoolSearch {
  /** An index or alias. */
  index: string;
  /** The query, as JSON text. */
  body: string;
  /** Query-string parameters of `_search` (preference, filter_path). */
  params?: Record<string, string>;
}

type Connection = NonNullable<ReturnType<Client['transport']['getConnection']>>;

/** What one node answered: its status, headers and body text. */
interface NodeAnswer {
  statusCode: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/** Statuses of a node or proxy in trouble, as the client's transport reads them: try another node. */
const NODE_TROUBLE = new Set([502, 503, 504]);

/** The parsed body of a `_search` answer; a failure is one of the client's errors. */
export async function searchThroughPool<B>(client: Client, search: PoolSearch): Promise<B> {
  const { transport } = client;
  const request = {
    method: 'POST',
    path: `/${encodeURIComponent(search.index)}/_search`,
    querystring: search.params === undefined ? '' : new URLSearchParams(search.params).toString(),
    body: search.body,
    headers: {
      ...(transport as unknown as { headers?: Record<string, string> }).headers, // the client's user-agent
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(search.body)),
    },
    timeout: transport.requestTimeout,
  };
  for (let attempt = 0; ; attempt++) {
    const connection = transport.getConnection({ requestId: 'pool-search' }) // the id names the request in a sniff's log only;
    if (connection === null) throw new errors.NoLivingConnectionsError('There are no living connections', clientAnswer(null, request, attempt));
    let answer: NodeAnswer;
    try {
      answer = await exchange(connection, request);
    } catch (err) {
      client.connectionPool.markDead(connection);
      if (attempt < transport.maxRetries) continue;
      (err as { meta?: unknown }).meta = clientAnswer(null, request, attempt);
      throw err;
    }
    if (NODE_TROUBLE.has(answer.statusCode)) {
      client.connectionPool.markDead(connection);
      if (attempt < transport.maxRetries) continue;
    } else {
      client.connectionPool.markAlive(connection);
    }
    const body = parsed(answer);
    if (answer.statusCode >= 400) throw new errors.ResponseError(clientAnswer(connection, request, attempt, answer, body));
    return body as B;
  }
}

/** One request to one node; a connection failure, timeout or broken body rejects. */
function exchange(connection: Connection, request: Parameters<Connection['request']>[0]): Promise<NodeAnswer> {
  return new Promise((resolve, reject) => {
    connection.request(request, (err, response) => {
      if (err !== null || response === null) return reject(err ?? new errors.ConnectionError('no response', undefined as never));
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { text += chunk; });
      response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, text }));
      response.on('error', (e) => reject(new errors.ConnectionError(e.message, undefined as never)));
      response.on('aborted', () => {
        response.destroy();
        reject(new errors.ConnectionError('Response aborted while reading the body', undefined as never));
      });
    });
  });
}

/** The body as JSON when the node says it is, as text otherwise (a proxy's error page). */
function parsed(answer: NodeAnswer): unknown {
  if (!answer.headers['content-type']?.includes('json') || answer.text === '') return answer.text;
  try {
    return JSON.parse(answer.text);
  } catch (err) {
    throw new errors.DeserializationError((err as Error).message, answer.text);
  }
}

/**
 * What the client's errors carry as `meta`: its answer, with the request sent but not its body
 * (the logger and dependency-errors.ts read the status and the error type from it).
 */
function clientAnswer(connection: Connection | null, request: { method: string; path: string; querystring: string }, attempts: number, answer?: NodeAnswer, body?: unknown) {
  return {
    body: body ?? null,
    statusCode: answer?.statusCode ?? null,
    headers: answer?.headers ?? null,
    warnings: null,
    meta: {
      context: null, name: 'opensearch-js', connection, attempts, aborted: false,
      request: { params: { method: request.method, path: request.path, querystring: request.querystring }, options: {}, id: 0 },
    },
  } as unknown as ApiResponse;
}
