// Partners and their keys. Keys are shown once, on the last line of stdout; revocations are
// announced to every API instance (src/partners/key-revocations.ts).
import type { Command } from 'commander';
import { announceRevokedKeys, revocationChannel } from '../partners/key-revocations.js';
import { createKeysService } from '../partners/keys-service.js';
import { createPartnersService } from '../partners/partners-service.js';
import { config, withDatabase } from './context.js';

/** Tells every API instance to forget revoked keys at once; without Redis they expire from its cache. */
async function announce(keyHashes: string[]): Promise<void> {
  try {
    await announceRevokedKeys(config.REDIS_URL, revocationChannel(config.QUEUE_PREFIX), keyHashes);
  } catch {
    console.error(`warning: Redis unreachable, the revocation was not announced; API instances accept the key for at most ${config.AUTH_CACHE_MS} ms more`);
  }
}

export function registerPartner(program: Command): void {
  const partner = program.command('partner').description('partners and their API keys');
  partner
    .command('create <name>')
    .description('create a partner; prints its key on the last line')
    .option('--admin', 'admin role: may act on any listing and write website reviews')
    .option('--analyst', 'analyst role: reads only, through /analytics and the GET endpoints (docs/analytics.md)')
    .action((name: string, opts: { admin?: boolean; analyst?: boolean }) =>
      withDatabase(async ({ db }) => {
        if (opts.admin && opts.analyst) {
          console.error('give --admin or --analyst, not both');
          process.exitCode = 1;
          return;
        }
        const role = opts.admin ? 'admin' : opts.analyst ? 'analyst' : 'partner';
        const created = await createPartnersService({ db }).create(name, role);
        console.log(`partner ${created.id} (${role}) created; its key, shown once:`);
        console.log(created.key);
      }),
    );
  partner
    .command('list')
    .description('list partners, each followed by its keys (indented)')
    .action(() =>
      withDatabase(async ({ db }) => {
        const keys = await createKeysService({ db }).list();
        for (const p of await createPartnersService({ db }).list()) {
          console.log([p.id, p.role, p.revokedAt ? 'revoked' : 'active', p.name].join('\t'));
          for (const k of keys.filter((key) => key.partnerId === p.id)) {
            console.log(['', 'key', k.id, k.revokedAt ? 'revoked' : 'active', `created ${k.createdAt.toISOString()}`].join('\t'));
          }
        }
      }),
    );
  partner
    .command('revoke <id>')
    .description('revoke a partner and all its keys')
    .action((id: string) =>
      withDatabase(async ({ db }) => {
        const revoked = await createPartnersService({ db }).revoke(Number(id));
        console.error(revoked ? `partner ${id} revoked` : `no active partner ${id}`);
        if (!revoked) process.exitCode = 1;
        else await announce(await createKeysService({ db }).hashesOf(Number(id)));
      }),
    );
  partner
    .command('key-create <partnerId>')
    .description('create another key for a partner (rotation); prints it on the last line')
    .action((partnerId: string) =>
      withDatabase(async ({ db }) => {
        const created = await createKeysService({ db }).create(Number(partnerId));
        if (!created) {
          console.error(`no active partner ${partnerId}`);
          process.exitCode = 1;
          return;
        }
        console.log(`key ${created.id} of partner ${partnerId} created; shown once:`);
        console.log(created.key);
      }),
    );
  partner
    .command('key-revoke <keyId>')
    .description('revoke one key; the partner, its other keys and its claims stay')
    .action((keyId: string) =>
      withDatabase(async ({ db }) => {
        const keyHash = await createKeysService({ db }).revoke(Number(keyId));
        console.error(keyHash ? `key ${keyId} revoked` : `no active key ${keyId}`);
        if (!keyHash) process.exitCode = 1;
        else await announce([keyHash]);
      }),
    );
}
