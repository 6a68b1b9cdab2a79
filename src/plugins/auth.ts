// Authentication (docs/contract.md §2) for every partner route, and the country check (§1) for
// every /:country route. Analysts (§22) only read: on partner routes every other method is 403;
// the /analytics routes admit analysts and admins only.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, notFound } from '../platform/errors.js';
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

/** What an analyst may do on partner routes: read, as a partner that has claimed nothing. */
const READ_METHODS = new Set(['GET', 'HEAD']);

function refuseAnalystWrites(request: FastifyRequest): void {
  if (request.caller.role === 'analyst' && !READ_METHODS.has(request.method)) throw forbidden('an analyst key may only read');
}

/** The /analytics routes: a valid key of an analyst or an admin. */
export function installAnalyticsAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('caller', null as unknown as KeyHolder);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    await authenticate(request, reply, deps);
    if (request.caller.role === 'partner') throw forbidden('/analytics is for analyst and admin keys');
  });
}

/** Routes outside any country (webhooks): a valid key is all they need. */
export function installPartnerAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('caller', null as unknown as KeyHolder);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    await authenticate(request, reply, deps);
    refuseAnalystWrites(request);
  });
}

export function installCountryAuth(app: FastifyInstance, deps: AuthDeps & { countries: readonly string[] }): void {
  app.decorateRequest('caller', null as unknown as KeyHolder);
  app.decorateRequest('country', '');
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    await authenticate(request, reply, deps);
    const country = String((request.params as { country?: string }).country ?? '').toLowerCase();
    if (!deps.countries.includes(country)) throw notFound(`country "${country}"`);
    request.country = country;
    refuseAnalystWrites(request);
  });
}
