// One HTTP attempt of a webhook delivery, to the address the target guard checked: the request's
// `lookup` answers with that address, so a DNS answer that changed since the check (rebinding)
// is never asked for. Redirects are not followed (node:http never does): a 3xx is a failure.
import type { LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';
import type { CheckedTarget } from './target-guard.js';

/** The receiver's status, or null when no status came (refused, reset, timed out). */
export interface AttemptResult {
  statusCode: number | null;
  error?: string;
}

export const isDelivered = (result: AttemptResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

/** A `lookup` that always names the checked address, in either calling style net.connect uses. */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

export function sendWebhook(target: CheckedTarget, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult> {
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    // One fresh connection per attempt (no agent): nothing pooled outlives the check.
    const request = client.request(
      target.url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'listings-webhooks/1' },
        agent: false,
        lookup: pinnedLookup(target),
      },
      (response) => {
        // The status decides; the receiver's body is not read.
        finish({ statusCode: response.statusCode ?? null });
      },
    );
    // The whole attempt, connecting included, must finish within the timeout.
    const timer = setTimeout(() => finish({ statusCode: null, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    request.on('error', (err) => finish({ statusCode: null, error: (err as NodeJS.ErrnoException).code ?? err.message }));
    request.end(body);
  });
}
