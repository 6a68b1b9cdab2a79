// Authentication (docs/contract.md §2) for every partner route, and the country check (§1) for
// every /:country route.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../platform/errors.js';
import { bearerToken } from '../partners/api-keys.js';
import type { KeyHolder, PartnersService } from '../partners/partners-service.js';
import type { AuthFailureLimit } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: KeyHolder;
    country: string;
  }
}

type AuthDeps = {
  partners: Pick<PartnersService, 'authenticate'>;
  /** The answer to a missing, unknown or revoked key: 401, or 429 for an address that failed too often (plugins/rate-limit.ts). */
  authFailures: AuthFailureLimit;
};

async function authenticate(request: FastifyRequest, reply: FastifyReply, deps: AuthDeps): Promise<void> {
  const key = bearerToken(request.headers.authorization);
  const caller = key ? await deps.partners.authenticate(key) : undefined;
  if (!caller) throw deps.authFailures(request, reply);
  request.caller = caller;
}

/** Routes outside any country (webhooks): a valid key is all they need. */
export function installPartnerAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('caller', null as unknown as KeyHolder);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => authenticate(request, reply, deps));
}

export function installCountryAuth(app: FastifyInstance, deps: AuthDeps & { countries: readonly string[] }): void {
  app.decorateRequest('caller', null as unknown as KeyHolder);
  app.decorateRequest('country', '');
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    await authenticate(request, reply, deps);
    const country = String((request.params as { country?: string }).country ?? '').toLowerCase();
    if (!deps.countries.includes(country)) throw notFound(`country "${country}"`);
    request.country = country;
  });
}
