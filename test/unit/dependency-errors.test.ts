import t from 'tap';
import { errors } from '@opensearch-project/opensearch';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { dependencyFailure, dependencyOf } from '../../src/platform/dependency-errors.js';

const openSearchAnswer = (statusCode: number, type: string) =>
  new errors.ResponseError({
    statusCode,
    body: { error: { type, root_cause: [{ type, reason: 'no such index [listings-de]' }] }, status: statusCode },
    headers: {},
    warnings: null,
    meta: {} as never,
  });
const postgresError = (code: string) => new DrizzleQueryError('select 1', [], Object.assign(new Error('canceled'), { code, severity: 'ERROR' }));

t.test('OpenSearch: 429 is busy, a missing index and 5xx are down, another 4xx is no dependency failure', async (t) => {
  t.equal(dependencyFailure(openSearchAnswer(429, 'too_many_requests')), 'busy');
  t.equal(dependencyFailure(openSearchAnswer(404, 'index_not_found_exception')), 'down');
  t.equal(dependencyFailure(openSearchAnswer(503, 'cluster_block_exception')), 'down');
  t.equal(dependencyFailure(openSearchAnswer(400, 'parsing_exception')), undefined);
  t.equal(dependencyFailure(new errors.ConnectionError('connect ECONNREFUSED', {} as never)), 'down');
});

t.test('PostgreSQL: statement and lock timeouts are busy, a shutdown is down, a constraint violation is none', async (t) => {
  t.equal(dependencyFailure(postgresError('57014')), 'busy');
  t.equal(dependencyFailure(postgresError('55P03')), 'busy');
  t.equal(dependencyFailure(postgresError('57P01')), 'down');
  t.equal(dependencyFailure(postgresError('23505')), undefined);
  t.equal(dependencyFailure(new Error('a bug')), undefined);
});

t.test('dependencyOf names the service an error came from, through its causes, and none for a bug', async (t) => {
  t.equal(dependencyOf(openSearchAnswer(400, 'parsing_exception')), 'opensearch');
  t.equal(dependencyOf(new Error('bulk failed', { cause: new errors.ConnectionError('down', {} as never) })), 'opensearch');
  t.equal(dependencyOf(postgresError('23505')), 'postgres');
  t.equal(dependencyOf(Object.assign(new Error('ERR'), { name: 'ReplyError' })), 'redis');
  t.equal(dependencyOf(new Error('a bug')), undefined);
});
