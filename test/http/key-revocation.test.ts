// Revoking a key reaches every API instance at once, not after the key cache expires; and a
// partner rotates keys (create a second, revoke the first) without losing its claims. The keys
// are created and revoked by the real ops CLI, as an operator would.
import t from 'tap';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createKeysService } from '../../src/partners/keys-service.js';
import { projectPath } from '../../src/platform/project-paths.js';
import { build, eventually, listingInput, runId } from '../helper.js';

const run = promisify(execFile);

/** Runs `npm run cli -- <args>` with the test environment; resolves with its stdout. */
async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', projectPath('src', 'cli.ts'), ...args], { cwd: projectPath(), env: process.env });
  return stdout;
}

// A key cache far longer than the test: a key refused within it was refused by the announcement.
const config = { AUTH_CACHE_MS: 10 * 60_000 };
const instances = [await build(t, { config }), await build(t, { config })] as const;
await Promise.all(instances.map((i) => i.deps.revokedKeys.ready));
const keys = createKeysService({ db: instances[0].deps.database.db });
const probe = '/de/listings/map?source_id=none';

async function keyIdsOf(partnerId: number): Promise<number[]> {
  return (await keys.list()).filter((k) => k.partnerId === partnerId).map((k) => k.id);
}

/** Waits until every instance refuses `auth`, at most `ms` each. */
async function refusedEverywhere(auth: { authorization: string }, ms = 1000) {
  for (const { app } of instances) {
    await eventually(async () => ((await app.inject({ url: probe, headers: auth })).statusCode === 401 ? true : undefined), ms, 'the revoked key to be refused');
  }
}

t.test('a revoked key answers 401 on two instances within a second, though both had it cached', async (t) => {
  const owner = await instances[0].partner();
  for (const { app } of instances) t.equal((await app.inject({ url: probe, headers: owner.auth })).statusCode, 200, 'accepted and cached');
  const [keyId] = await keyIdsOf(owner.id);

  await cli('partner', 'key-revoke', String(keyId));
  await refusedEverywhere(owner.auth);
});

t.test('revoking a partner reaches every instance too', async (t) => {
  const owner = await instances[0].partner();
  for (const { app } of instances) t.equal((await app.inject({ url: probe, headers: owner.auth })).statusCode, 200);
  await cli('partner', 'revoke', String(owner.id));
  await refusedEverywhere(owner.auth);
});

t.test('rotation: a second key works after the first is revoked, and the partner keeps its claimed listing', async (t) => {
  const owner = await instances[0].partner();
  const created = await instances[0].app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() });
  t.equal(created.statusCode, 201);
  const listingId = created.json().id as string;
  const [firstKeyId] = await keyIdsOf(owner.id);

  const output = (await cli('partner', 'key-create', String(owner.id))).trimEnd().split('\n');
  const secondKey = output.at(-1)!;
  t.match(secondKey, /^lk_[A-Za-z0-9_-]{43}$/, 'the new key stands alone on the last line');
  const second = { authorization: `Bearer ${secondKey}` };
  const secondKeyId = Number(/^key (\d+) /.exec(output[0]!)?.[1]);
  t.same(await keyIdsOf(owner.id), [firstKeyId, secondKeyId], 'the partner holds two keys');

  await cli('partner', 'key-revoke', String(firstKeyId));
  await refusedEverywhere(owner.auth);

  const list = await cli('partner', 'list');
  t.match(list, new RegExp(`^\\tkey\\t${firstKeyId}\\trevoked\\t`, 'm'), 'partner list shows the revoked key');
  t.match(list, new RegExp(`^\\tkey\\t${secondKeyId}\\tactive\\t`, 'm'), 'and the active one');

  for (const { app } of instances) {
    const update = await app.inject({ method: 'PUT', url: `/de/listings/${listingId}`, headers: second, payload: listingInput({ name: `Rotiert ${runId}` }) });
    t.equal(update.statusCode, 200, "the listing is still the partner's own");
    t.equal((await app.inject({ method: 'PUT', url: `/de/listings/${listingId}/claim`, headers: second })).statusCode, 204, 'its claim holds');
  }
});
