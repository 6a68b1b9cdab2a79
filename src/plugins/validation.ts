// Request validation with two Ajv instances (src/schemas/body-validation.ts): bodies are checked
// strictly; query strings and path parameters are coerced, since they arrive as text. Request
// schemas use no $ref, so no shared schemas are needed.
import type { FastifyInstance } from 'fastify';
import { createAjv } from '../schemas/body-validation.js';

export function installValidators(app: FastifyInstance): void {
  const bodyAjv = createAjv({ coerce: false });
  const textAjv = createAjv({ coerce: true });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));
}
