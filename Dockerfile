# Multi-stage: dependencies are installed in a build stage; the runtime image runs as non-root.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY src ./src
COPY indexer ./indexer
COPY mappings ./mappings
COPY drizzle ./drizzle
COPY data ./data
USER node
EXPOSE 3000 3001
CMD ["npx", "tsx", "src/server.ts"]
