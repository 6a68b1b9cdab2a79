# Multi-stage: TypeScript is compiled in a build stage, production dependencies are installed in
# another; the runtime image holds compiled JavaScript, the data files it reads, and runs as non-root.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
RUN npm ci
COPY src ./src
COPY indexer ./indexer
RUN npm run build

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY mappings/*.json ./mappings/
COPY drizzle ./drizzle
COPY data ./data
# The local media driver's directory (MEDIA_DIR=.media), writable by the app; docker-compose.yml
# mounts one volume there for the API (which writes files) and the indexer (whose housekeeping
# removes them).
RUN mkdir .media && chown node:node .media
USER node
# 3000: the API; 9464: its operations port (METRICS_PORT in docker-compose.yml); 3001: the indexer's.
EXPOSE 3000 3001 9464
# The V8 flags are package.json config.node_flags (test/unit/compose.test.ts keeps them equal).
CMD ["node", "--max-old-space-size=192", "dist/src/server.js"]
