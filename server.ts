/**
 * The one process: Next.js (App Router) and Socket.IO on one HTTP port.
 *
 *   npm run dev    development with watch; with no environment at all it starts an
 *                  embedded PostgreSQL, finds or starts Redis, migrates, seeds a demo.
 *   npm start      production (after `npm run build`); DATABASE_URL, REDIS_URL and
 *                  SESSION_SECRET come from the environment — or, with no DATABASE_URL,
 *                  "one box": the embedded PostgreSQL and Redis as in development, no demo
 *                  (decision 0047).
 */
// First: refuses an unsupported Node.js before anything else loads (decision 0035).
import "./scripts/require-node.mjs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import nextEnv from "@next/env";
import next from "next";
import { dataDirOf, loadEnv, EnvError, type Env } from "@/lib/server/env.server";
import { createLogger, redactUrl, type Logger } from "@/lib/server/ops/logger.server";
import { createApp } from "@/lib/server/app.server";
import { setApp } from "@/lib/server/app-context";
import { keptSessionSecret, redisAnswers, startEmbeddedPostgres, startPrivateRedis, type Stoppable } from "@/lib/server/dev/dev-services.server";
import { aheadWarning, applyMigrations } from "@/lib/adapters/postgres/migrate.server";
import { ensureDemoTenant, storedDemo } from "@/lib/server/dev/demo.server";
import { printStartBanner } from "@/lib/server/ops/start-banner.server";
import { applyLanguage } from "@/lib/server/http/language.server";
import { trackConnections } from "@/lib/server/http/http-drain.server";
import { refuseMalformedUrl, toOriginForm } from "@/lib/server/http/malformed-url.server";
import { loadActionPages, loadBuildId, refuseForeignAction, refuseUnreadableArguments } from "@/lib/server/http/action-guard.server";
import { refuseUnservedMethod, sendError } from "@/lib/server/http/api-edge-errors.server";
import { AppError } from "@/lib/core/errors";
import { answerProtocolErrors } from "@/lib/server/http/protocol-errors.server";
import { parseTrustProxy, stampClientAddress } from "@/lib/server/http/client-address.server";
import { refusePublicFlood } from "@/lib/server/http/public-throttle.server";
import { applySecurityHeaders } from "@/lib/server/http/security-headers.server";
import { observeRequest } from "@/lib/server/http/observe-request.server";
import { actionCallProbe } from "@/lib/server/ops/request-context.server";
import { routeMatcher, scanAppRoutes, scanPublicFiles } from "@/lib/server/http/route-patterns.server";
import { apiRouter, loadApiRoutes } from "@/lib/server/http/api-router.server";

async function main() {
  const dev = process.env.NODE_ENV !== "production";
  nextEnv.loadEnvConfig(process.cwd(), dev);

  let env: Env;
  try {
    env = loadEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(`nextup: cannot start.\n${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  const log = createLogger(env.LOG_LEVEL, { pretty: (env.LOG_FORMAT ?? (dev ? "pretty" : "json")) === "pretty" });
  const dataDir = dataDirOf(env);
  // Kept in the data folder when none is given: in development, and on one box (no DATABASE_URL).
  const keptSecret = !process.env.SESSION_SECRET && (dev || env.EMBEDDED);
  if (keptSecret) env = { ...env, SESSION_SECRET: keptSessionSecret(dataDir) };
  const services: Stoppable[] = [];

  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    const pg = await startEmbeddedPostgres(env.EMBEDDED_PG_DIR, env.EMBEDDED_PG_PORT, log);
    services.push(pg);
    databaseUrl = pg.url;
  }
  let redisUrl = env.REDIS_URL;
  let privateRedis = false;
  if (!env.REDIS_CLUSTER_NODES && !(await redisAnswers(redisUrl))) {
    const autostart = env.REDIS_AUTOSTART ?? (dev || env.EMBEDDED);
    if (!autostart) {
      log.warn({ redis: redactUrl(redisUrl) }, "Redis does not answer; continuing, requests needing it answer 503 until it is back");
    } else {
      log.warn({ redis: redactUrl(redisUrl) }, "Redis does not answer; starting a private redis-server");
      const redis = await startPrivateRedis(env.EMBEDDED_PG_PORT + 1, `${dataDir}/redis`, log);
      services.push(redis);
      redisUrl = redis.url;
      privateRedis = true;
    }
  }

  if (env.MIGRATE_ON_START) {
    const { applied, ahead } = await applyMigrations(databaseUrl, { log: (msg) => log.info(msg) });
    if (applied.length) log.info({ applied }, "migrations applied");
    if (ahead.length) log.warn({ ahead }, aheadWarning(ahead));
  }

  const nextApp = next({ dev, dir: process.cwd(), hostname: env.HOST, port: env.PORT, turbopack: dev });
  const handle = nextApp.getRequestHandler();
  await nextApp.prepare();

  // Which page serves which server action: read from the build (in development it changes as pages compile).
  const actionPages = dev ? null : loadActionPages(".next");
  // Told to every screen on connect and in the answer to an action of another build (decision 0048).
  const build = dev ? null : loadBuildId(".next");
  // /api is served from the same route files without Next's request handling (decision 0018).
  const api = apiRouter(await loadApiRoutes("app"), log);
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  const httpsPublicUrl = env.PUBLIC_URL?.startsWith("https:") ?? false;
  // Request ids, log context and the duration histogram's route labels (the app is built below, before any request).
  const observed = { match: routeMatcher(scanAppRoutes("app"), scanPublicFiles("public")), log, metrics: () => app.metrics };
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    try {
      route(req, res);
    } catch (err) {
      // A bug in a step in front of Next.js: an answer and a log line, never a connection left hanging.
      log.error({ err, url: req.url?.slice(0, 200) }, "unhandled error before routing");
      if (!res.headersSent)
        sendError(res, new AppError("INTERNAL", { message: String(err), userMessage: "Something went wrong on our side. Please try again." }));
      else res.destroy();
    }
  };
  const route = (req: IncomingMessage, res: ServerResponse) => {
    toOriginForm(req);
    observeRequest(observed, req, res, (match) => {
      // `connections` is assigned below, before the server listens.
      if (connections.refuseWhileDraining(req, res)) return;
      if (refuseMalformedUrl(req, res) || refuseUnservedMethod(req, res, match, api.allowed(match)) || refuseForeignAction(req, res, match, actionPages, build))
        return;
      stampClientAddress(req, trustProxy, { httpsPublicUrl });
      void refusePublicFlood(req, res, match, app.throttles, log).then((refused) => {
        if (refused) return;
        if (api.serves(match)) return api.serve(req, res, match);
        applyLanguage(req, res);
        refuseUnreadableArguments(req, res, match, actionCallProbe());
        return handle(req, res);
      });
    });
  };
  const http = createServer(serve);
  answerProtocolErrors(http, serve);
  const connections = trackConnections(http);
  // On the embedded database this box holds the only copy of the shop: backups on by default, in its data folder (decision 0049).
  const backupDir = env.BACKUP_DIR ?? (env.EMBEDDED ? path.join(dataDir, "backups") : undefined);
  const app = createApp({ env: { ...env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, BACKUP_DIR: backupDir }, log, http, build });
  setApp(app);
  // Prepended after Socket.IO took over the "request" listeners, so it runs first for every
  // request, Socket.IO's polling included.
  const headerOptions = { httpsPublicUrl, trustProxy, dev, match: observed.match };
  http.prependListener("request", (req, res) => {
    toOriginForm(req); // before the route is matched (and kept) for this request
    applySecurityHeaders(req, res, headerOptions);
  });
  await app.warmUp();

  const demo = env.DEMO_TENANT ?? (dev && !env.DATABASE_URL);
  if (demo) await ensureDemoTenant(app);
  // A demo carried over (a development .data moved to one box) and still signing in with the README's codes is a warning.
  const demoCodesWork = !demo && Object.values((await storedDemo(app.db))?.codes ?? {}).some((c) => c !== null);

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(env.PORT, env.HOST, resolve);
  });
  app.scheduler?.start();
  await app.startWorkers();
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  log.info({ port, dev, oneBox: !dev && env.EMBEDDED }, `nextup listening on http://localhost:${port}`);
  // Text for a person reading the console or journal; LOG_LEVEL=warn (or quieter) leaves logs JSON only.
  if (log.isLevelEnabled("info"))
    await printStartBanner(app, { dev, port, dataDir, keptSecret, privateRedis, demoCodesWork }).catch((e: unknown) =>
      log.warn({ err: e instanceof Error ? e.message : String(e) }, "could not print the start banner"),
    );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.beginShutdown(); // readiness answers 503 from now on
    log.info({ signal, delayMs: env.SHUTDOWN_DELAY_MS }, "shutting down");
    const force = setTimeout(() => {
      log.error("graceful shutdown took over 10 s; exiting");
      process.exit(1);
    }, env.SHUTDOWN_DELAY_MS + 10_000);
    force.unref();
    // 0. Keep serving while a load balancer's readiness checks see the 503 and move traffic away.
    if (env.SHUTDOWN_DELAY_MS > 0) await new Promise((r) => setTimeout(r, env.SHUTDOWN_DELAY_MS));
    // 1. Close the sockets (boards reconnect to another node); io.close() resolves only
    // once the HTTP server has closed, so 2. stop accepting, let requests in flight finish
    // (at most 5 s; a request arriving meanwhile on a kept-alive connection gets 503 and
    // Connection: close) and cut what is left open (keep-alive, Next's HMR socket).
    const ioClosed = app.io.close();
    // Meanwhile stop the scheduler and release its lock (before Redis quits), so another
    // node leads at once rather than after the lock's expiry.
    const schedulerStopped = app.scheduler
      ?.stop()
      .catch((e: unknown) => log.warn({ err: e instanceof Error ? e.message : String(e) }, "could not release the scheduler lock"));
    await connections.drain(5_000);
    await ioClosed;
    await schedulerStopped;
    // 3. Quit Redis, disconnect Prisma, stop embedded services.
    await app.close();
    for (const s of services.reverse()) await s.stop().catch(() => {});
    log.info("bye");
    process.exit(0);
  };
  process.on("unhandledRejection", (reason) => {
    log.error({ err: reason }, "unhandled promise rejection");
  });
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((e: unknown) => {
  console.error("nextup: failed to start:", e instanceof Error ? e.message : e);
  process.exit(1);
});

export type { Logger };
