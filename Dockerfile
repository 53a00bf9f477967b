# Production image: `docker compose up` builds it (see docker-compose.yml).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
# The image's Node.js 24 runs the app: the pinned node-<platform> package (for machines whose
# own Node.js is older, decision 0031) is not needed here.
RUN npm ci --no-audit --no-fund && rm -rf node_modules/node-linux-* node_modules/.bin/node
COPY . .
RUN npm run build

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
# Not root: the app only writes below /app (Next's .next/cache).
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
# Migrations are applied at start-up (MIGRATE_ON_START, default on), under an advisory
# lock, so several replicas may start together.
# node itself, no wrapper: SIGTERM from `docker stop` reaches the server (npx and the tsx
# CLI did not pass it on). docker-compose.yml adds `init: true` (tini as PID 1).
CMD ["node", "--import", "tsx", "server.ts"]
