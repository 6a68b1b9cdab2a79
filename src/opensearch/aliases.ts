// The one alias swap: a rebuilt index takes over its aliases in a single atomic `_aliases` call,
// so searches answer from the old index until the call and from the new one after it.
import type { OpenSearchClient } from './client.js';

/**
 * Points every alias of `aliases` at `index` alone, in one call; returns the indices that the
 * first alias named before (the caller drops them once it no longer needs them).
 */
export async function swapAliases(client: OpenSearchClient, index: string, aliases: readonly string[]): Promise<string[]> {
  const [main] = aliases;
  const current = await client.indices.getAlias({ name: main! }, { ignore: [404] });
  const old = current.statusCode === 404 ? [] : Object.keys(current.body as object);
  await client.indices.updateAliases({
    body: {
      actions: [...old.flatMap((o) => aliases.map((alias) => ({ remove: { index: o, alias } }))), ...aliases.map((alias) => ({ add: { index, alias } }))],
    },
  });
  return old;
}
