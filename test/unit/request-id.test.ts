import t from 'tap';
import type { IncomingMessage } from 'node:http';
import { requestId } from '../../src/plugins/request-id.js';

const withHeader = (value: string | string[] | undefined) => ({ headers: { 'x-request-id': value } }) as unknown as IncomingMessage;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

t.test('a safe client request id is kept; anything else is replaced by a new UUID', async (t) => {
  t.equal(requestId(withHeader('trace-me-42')), 'trace-me-42');
  t.equal(requestId(withHeader('a.b:c_d-1')), 'a.b:c_d-1');
  t.equal(requestId(withHeader('x'.repeat(64))), 'x'.repeat(64));
  for (const bad of ['x'.repeat(65), '', 'line\nbreak', 'bell\u0007', 'tab\there', 'quote"', '<script>', 'ümlaut', 'a b']) {
    t.match(requestId(withHeader(bad)), uuid, JSON.stringify(bad.slice(0, 20)));
  }
  t.match(requestId(withHeader(['a', 'b'])), uuid, 'a repeated header');
  t.match(requestId(withHeader(undefined)), uuid, 'none given');
});
