// Authentication (docs/contract.md §2) for every partner route, and the country check (§1) for
// every /:country route. Analysts (§22) only read: on partner routes every other method is 403;
// the /analytics routes admit analysts and admins only.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, forbidden, notFound } from '../platform/errors.js';
import { bearerToken } from '../partners/api-keys.js';
import type { KeyHolder, PartnersService } from '../partners/partners-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: KeyHolder;
    country: string;
  }
}

type AuthDeps = { partners: Pick<PartnersService, 'authenticate'> };

async function authenticate(request: FastifyRequest, deps: AuthDeps): Promise<void> {
  const key = bearerToken(request.headers.authorization);
  const caller = key ? await deps.partners.authenticate(key) : undefined;
  if (!caller) throw new AppError('unauthorized', 'a valid API key is required: Authorization: Bearer <key>');
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
  app.addHook('onRequest', async (request: FastifyRequest) => {
    await authenticate(request, deps);
    if (request.caller.role === 'partner') throw forbidden('/analytics is for analyst and admin keys');
  });
}

/** Routes outside any country (webhooks): a valid key is all they need. */
export function installPartnerAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('caller', null as unknown as KeyHolder);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    await authenticate(request, deps);
    refuseAnalystWrites(request);
  });
}

export function installCountryAuth(app: FastifyInstance, deps: AuthDeps & { countries: readonly string[] }): void {
  app.decorateRequest('caller', null as unknown as KeyHolder);
  app.decorateRequest('country', '');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    await authenticate(request, deps);
    const country = String((request.params as { country?: string }).country ?? '').toLowerCase();
    if (!deps.countries.includes(country)) throw notFound(`country "${country}"`);
    request.country = country;
    refuseAnalystWrites(request);
  });
}
