// Reads (GET, HEAD) not answered within `ms` answer 503 `unavailable` (Fastify's handlerTimeout,
// which also aborts `request.signal`), instead of holding the client and its socket while a
// dependency hangs. Writes get none: a 503 while the write goes on to commit would tell the
// client it failed. They are bounded by the database's statement and lock timeouts, which fail
// before the commit, and by the body and request timeouts.
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A read that streams its answer for as long as the client takes to read it (the export):
     * no handler timeout, which would cut the stream off mid-body. Its own route says what bounds it.
     */
    streamed?: boolean;
  }
}

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

export function installReadTimeout(app: FastifyInstance, { ms }: { ms: number }): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.streamed) return;
    if (route.handlerTimeout === undefined && [route.method].flat().every(isRead)) route.handlerTimeout = ms;
  });
}
