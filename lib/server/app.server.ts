/**
 * The wiring: the one place where adapters are built and handed to the core (with the
 * parts of it that have a file of their own in ./wiring: Redis clients, the counter,
 * printing, the probes). server.ts calls createApp(); route handlers and server actions
 * reach the result through getApp() (lib/server/app-context.ts).
 */
import type { Server as HttpServer } from "node:http";
import { Cluster, type Redis } from "ioredis";
import { systemClock } from "@/lib/core/numbering";
import { defineScripts } from "@/lib/adapters/redis/scripts.server";
import { ReplicationWatch } from "@/lib/core/replication-watch";
import { OrderService } from "@/lib/core/order-service";
import { ShiftService } from "@/lib/core/shift-service";
import { Scheduler } from "@/lib/core/scheduler";
import type { BackupScheduler } from "@/lib/core/backups/backup-scheduler";
import { wireBackups } from "./wiring/backups.server";
import { RedisLeaderLock } from "@/lib/adapters/redis/leader-lock.server";
import { PrismaSchedulerStore } from "@/lib/adapters/postgres/scheduler-store.server";
import { RedisIdempotencyClaims } from "@/lib/adapters/redis/idempotency-claims.server";
import { poolFor, prismaFor, type Db } from "@/lib/adapters/postgres/prisma.server";
import { PrismaAuditLog } from "@/lib/adapters/postgres/audit-log.server";
import { PrismaReportStore } from "@/lib/adapters/postgres/reports.server";
import { ReportService } from "@/lib/core/reports/report-service";
import { PrismaWaitHistory } from "@/lib/adapters/postgres/wait-history.server";
import { WaitEstimates } from "@/lib/core/wait-service";
import { PrismaMenuRepository } from "@/lib/adapters/postgres/menu-repository.server";
import { MenuService } from "@/lib/core/menu-service";
import { createSocketServer, SocketPublisher, type IoServer } from "@/lib/adapters/realtime/socket-server.server";
import { VoiceRenderer } from "@/lib/adapters/voice/voice.server";
import { socketRelay, withVoiceAhead } from "@/lib/adapters/voice/voice-ahead.server";
import { ApiKeyService } from "@/lib/core/api-keys";
import { StaffCodeService } from "@/lib/core/staff-codes";
import { StaffService } from "@/lib/core/staff/staff-service";
import { PrismaSettingsStore } from "@/lib/adapters/postgres/settings-store.server";
import { PrismaApiKeyStore } from "@/lib/adapters/postgres/api-key-store.server";
import { PrismaStaffCodeStore } from "@/lib/adapters/postgres/staff-code-store.server";
import { PrismaStaffMemberStore } from "@/lib/adapters/postgres/staff-member-store.server";
import { PrismaSessionRevocations } from "@/lib/adapters/postgres/session-revocations.server";
import { InvalidationBus } from "@/lib/adapters/redis/invalidation-bus.server";
import { generateApiKey, generateStaffSecret, hashSecret, verifySecret } from "@/lib/auth/secrets.server";
import { ttlWhileSubscribed, wireInvalidation } from "./caches/invalidation.server";
import { Access } from "@/lib/auth/access.server";
import type { Env } from "./env.server";
import type { Logger } from "./ops/logger.server";
import { TENANT_CACHE_MS, TenantDirectory } from "./caches/tenant-directory.server";
import { createMetrics, registerVoiceMetrics, registerWebhookMetrics, type AppMetrics } from "./ops/metrics.server";
import { WebhookService } from "@/lib/core/webhooks/webhook-service";
import { SeriesService } from "@/lib/core/series-service";
import { PrismaSeriesStore } from "@/lib/adapters/postgres/series-store.server";
import { StationService } from "@/lib/core/station-service";
import { PrismaStationStore } from "@/lib/adapters/postgres/station-store.server";
import { WebhookDispatcher } from "@/lib/core/webhooks/dispatcher";
import { tenantShare } from "@/lib/core/fair-share";
import { WebhookQueue } from "@/lib/adapters/postgres/webhook-queue.server";
import { OUTBOX_CACHE_MS, WebhookOutbox } from "@/lib/adapters/postgres/webhook-outbox.server";
import { PrismaDeliveryLedger } from "@/lib/adapters/postgres/webhook-deliveries.server";
import { PrismaWebhookStore } from "@/lib/adapters/postgres/webhook-store.server";
import { createHttpSender, resolveHost } from "@/lib/adapters/webhooks/http-sender.server";
import { generateWebhookSecret, SecretCipher } from "@/lib/auth/webhook-secrets.server";
import { retryAfterSeconds, Throttles } from "./http/throttles.server";
import { clientAddressOf, limitKey, parseTrustProxy } from "./http/client-address.server";
import { requestIdFrom, runWithRequest, wellFormedSlug } from "./ops/request-context.server";
import type { Clock, AuditLog } from "@/lib/core/ports";
import { SettingsService } from "@/lib/core/settings-service";
import { PrismaOrderRepository } from "@/lib/adapters/postgres/order-repository.server";
import { PrismaShiftRepository } from "@/lib/adapters/postgres/shift-repository.server";
import { PrismaTenantRepository } from "@/lib/adapters/postgres/tenant-repository.server";
import type { PrinterService } from "@/lib/core/printing/printer-service";
import { PrismaPrinterStore, PRINTER_ROUTES_CACHE_MS } from "@/lib/adapters/postgres/printer-store.server";
import { PrintQueue, PRINT_QUEUE_SPEC } from "@/lib/adapters/postgres/print-queue.server";
import type { Readiness } from "./ops/readiness.server";
import { createRedis, redisTarget, warmUpRedis } from "./wiring/redis-clients.server";
import { wireNumbering } from "./wiring/counter.server";
import { wirePrinting } from "./wiring/printing.server";
import { createProbes, type Health } from "./wiring/probes.server";
import { wirePush, type PushFeature } from "./wiring/push.server";

export interface App {
  env: Env & { DATABASE_URL: string };
  log: Logger;
  db: Db;
  redis: Redis | Cluster;
  io: IoServer;
  tenants: TenantDirectory;
  tenantRepo: PrismaTenantRepository;
  access: Access;
  orders: OrderService;
  shifts: ShiftService;
  /** Who changed what, per restaurant. */
  audit: AuditLog;
  /** The manager's reports: shift history, figures, find by number, CSV export. */
  reports: ReportService;
  /** "About 6–9 min" for an order being prepared, from the restaurant's last hour (decision 0052). */
  waits: WaitEstimates;
  /** The console's settings, API keys and staff sign-in codes. */
  settings: SettingsService;
  /** Number series: prefixes, ranges that wrap, the channels each serves (decision 0027). */
  series: SeriesService;
  /** Kitchen stations: where each line is made, and their screens (issue #40). */
  stations: StationService;
  keys: ApiKeyService;
  staffCodes: StaffCodeService;
  /** A restaurant's people and their PIN sign-in (decision 0051). */
  staff: StaffService;
  /** The menu: categories and items (manager edits, kiosk reads). */
  menu: MenuService;
  /** Webhook endpoints and their deliveries (the console and the REST API). */
  webhooks: WebhookService;
  /** Network printers, their status and print jobs (decision 0029). */
  printers: PrinterService;
  metrics: AppMetrics;
  /** Web Push to customers' phones (decision 0053): the key, whether it is on, the recent sends, subscribing. */
  push: PushFeature;
  /** Every rate limit: per key, per address before authentication, sign-in, public reads, sockets, voice. */
  throttles: Throttles;
  /** The board's fallback voice; null when VOICE_FALLBACK is off. */
  voice: VoiceRenderer | null;
  /** Waits (bounded) for Redis and loads the scripts, so the first orders don't pay for it. */
  warmUp(): Promise<void>;
  /** Starts delivering webhooks and printing tickets from this node (after warmUp). */
  startWorkers(): Promise<void>;
  /** Where this node takes numbers from right now (no I/O). */
  counterSource(): "redis" | "database";
  /** Starts this restaurant's scheduled shifts while this node leads; null when SCHEDULER is off. */
  scheduler: Scheduler | null;
  /** Scheduled backups (decision 0049); null when BACKUP_DIR is unset. */
  backups: BackupScheduler | null;
  /** Whether this node leads the scheduler now (no I/O). */
  leader(): boolean;
  /** Liveness and a glance at the dependencies (each ping bounded); never waits long. */
  health(): Promise<Health>;
  /** The database's replication and history, watched for the counter (decision 0028); started by warmUp(). */
  replication: ReplicationWatch;
  /** Readiness: database, Redis, migrations applied, not shutting down (lib/server/ops/readiness.server.ts). */
  readiness(): Promise<Readiness>;
  /** Marks the node as shutting down: readiness answers 503 from now on. */
  beginShutdown(): void;
  close(): Promise<void>;
}

/** Webhook attempts one node makes at once (a slow endpoint holds one worker for up to WEBHOOKS_TIMEOUT_MS); one restaurant holds at most half (decision 0044). */
const WEBHOOK_WORKERS = 4;

export function createApp(opts: {
  env: Env & { DATABASE_URL: string };
  log: Logger;
  http: HttpServer;
  clock?: Clock;
  /** The production build served (.next/BUILD_ID): screens of another build reload. Null or absent: not told (development). */
  build?: string | null;
}): App {
  const { env, log, http } = opts;
  const clock = opts.clock ?? systemClock;

  // REDIS_CLUSTER_NODES, when set, wins over REDIS_URL: three ioredis Clusters then.
  const target = redisTarget(env);
  // The main client serves the counter, the rate limiters and health: nothing on it may
  // keep a cashier waiting longer than the counter's own timeout.
  const redis = createRedis(target, log, "main", { failFast: true, commandTimeoutMs: env.COUNTER_TIMEOUT_MS });
  defineScripts(redis);
  const pub = createRedis(target, log, "pub");
  const sub = createRedis(target, log, "sub");

  const db = prismaFor(env.DATABASE_URL);
  const tenantRepo = new PrismaTenantRepository(db);
  // Caches of tenants, keys and code generations are forgotten on every node through this bus.
  const bus = new InvalidationBus(createRedis(target, log, "invalidate"), pub, env.REDIS_KEY_PREFIX, log);
  const tenants = new TenantDirectory((slug) => tenantRepo.findBySlug(slug), ttlWhileSubscribed(bus, TENANT_CACHE_MS));
  const staffCodeStore = new PrismaStaffCodeStore(db);
  const revocations = new PrismaSessionRevocations(db);
  const staffMembers = new PrismaStaffMemberStore(db);
  const access = new Access(tenantRepo, env.SESSION_SECRET, {
    generationOf: (id, role) => staffCodeStore.generation(id, role),
    memberState: (tenantId, id) => staffMembers.state(tenantId, id),
    ttlMs: ttlWhileSubscribed(bus, Infinity),
    // `invalidate` is wired just below; a sign-out only happens once requests arrive.
    sessions: { revoke: (s) => revocations.revoke(s), isRevoked: (id) => revocations.isRevoked(id), ended: (id) => invalidate.sessionEnded(id) },
  });
  // Webhooks: the outbox rows and their queued attempts are written in each change's transaction.
  const webhookQueue = new WebhookQueue(env.DATABASE_URL, {
    attemptTimeoutMs: env.WEBHOOKS_TIMEOUT_MS,
    pollMs: Math.min(2_000, env.WEBHOOKS_RETRY_BASE_MS),
    log,
  });
  const outbox = new WebhookOutbox(webhookQueue, db, ttlWhileSubscribed(bus, OUTBOX_CACHE_MS));
  // Printing: the print jobs are an outbox too, drained per printer through the same pg-boss.
  webhookQueue.alsoCreate(PRINT_QUEUE_SPEC);
  const printQueue = new PrintQueue(webhookQueue.boss, db, log);
  const printerStore = new PrismaPrinterStore(db, printQueue, ttlWhileSubscribed(bus, PRINTER_ROUTES_CACHE_MS), {
    printers: env.PRINTERS_PER_RESTAURANT,
    waitingJobs: env.PRINT_JOBS_WAITING_PER_RESTAURANT,
  });
  const invalidate = wireInvalidation(bus, { tenants, access, outbox, printers: printerStore });
  const secretCipher = new SecretCipher(env.SESSION_SECRET);
  // One policy for both checks: at creation (the service) and at every attempt (the sender).
  const webhookPolicy = { allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE, allowLinkLocal: env.WEBHOOKS_ALLOW_LINK_LOCAL ?? [] };
  const orderRepo = new PrismaOrderRepository(db, outbox, poolFor(env.DATABASE_URL), printerStore);
  const shiftRepo = new PrismaShiftRepository(db, outbox);
  let scheduler: Scheduler | null = null;

  const throttles = new Throttles(redis, env, () => counter.available());
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  const io = createSocketServer(http, {
    findTenant: (slug) => tenants.find(slug),
    log,
    build: opts.build ?? null,
    // A handshake's log lines carry a request id and the restaurant, as HTTP requests' do.
    withLogContext: (handshake, fn) => runWithRequest({ reqId: requestIdFrom(handshake.requestId), tenant: wellFormedSlug(handshake.slug) }, fn),
    limits: {
      addressOf: (req) => limitKey(clientAddressOf(req, trustProxy)),
      connectionsPerAddress: env.SOCKET_CONNECTIONS_PER_ADDRESS,
      handshake: (address) =>
        throttles.socketHandshakes.consume(address).then(
          () => null,
          (e: unknown) => {
            if (e instanceof Error) throw e;
            return retryAfterSeconds((e as { msBeforeNext?: number }).msBeforeNext);
          },
        ),
    },
    // @socket.io/redis-adapter takes an ioredis Cluster as well (it asks every node for
    // PUBSUB NUMSUB).
    pubsub: { pub, sub, channelPrefix: `${env.REDIS_KEY_PREFIX}socket.io` },
  });
  const metrics = createMetrics({
    counterSource: () => issuer.source(),
    leader: () => scheduler?.isLeader() ?? false,
    sockets: () => io.of("/").sockets.size,
    replication: () => replication.replication(),
  });
  const audit = new PrismaAuditLog(db);
  const { counter, issuer, replication, ledgerPool } = wireNumbering({ env, redis, log, clock, audit, metrics });
  const deliveryLedger = new PrismaDeliveryLedger(db, webhookQueue, secretCipher);
  const dispatcher = new WebhookDispatcher({
    ledger: deliveryLedger,
    send: createHttpSender({ policy: webhookPolicy, timeoutMs: env.WEBHOOKS_TIMEOUT_MS }),
    metrics: registerWebhookMetrics(metrics.registry, () => deliveryLedger.pending()),
    log,
    clock,
    retryBaseMs: env.WEBHOOKS_RETRY_BASE_MS,
    perTenant: tenantShare(WEBHOOK_WORKERS),
  });
  const voice = env.VOICE_FALLBACK ? new VoiceRenderer({ log, metrics: registerVoiceMetrics(metrics.registry) }) : null;
  // A number made ready or called again: its clips are rendered ahead on every node (decision 0036).
  const sockets = new SocketPublisher(io, log);
  const push = wirePush({ env, db, queue: webhookQueue, cipher: secretCipher, metrics, log, clock });
  // A move to ready or a call again wrote its pushes in its own statement: the relay queues them at once.
  const events = push.withPushKick(voice ? withVoiceAhead(sockets, voice, socketRelay(io)) : sockets);
  const printing = wirePrinting({ env, db, store: printerStore, queue: printQueue, invalidate, events, metrics, log, clock, throttles });
  const printers = printing.service;

  const claims = new RedisIdempotencyClaims(redis, env.REDIS_KEY_PREFIX, () => counter.available());
  const menuRepo = new PrismaMenuRepository(db);
  const orders = new OrderService({
    issuer,
    claims,
    orders: orderRepo,
    shifts: shiftRepo,
    events,
    metrics,
    log,
    clock,
    menu: menuRepo,
    audit,
    printing: printers,
  });
  const menu = new MenuService({ menu: menuRepo, audit, log, events });
  const shifts = new ShiftService({ issuer, counter, shifts: shiftRepo, orders: orderRepo, events, audit, log, clock });
  if (env.SCHEDULER) {
    scheduler = new Scheduler({
      lock: new RedisLeaderLock(redis, env.REDIS_KEY_PREFIX, env.SCHEDULER_LOCK_TTL_MS),
      store: new PrismaSchedulerStore(db),
      shifts,
      log,
      clock,
      monotonic: () => performance.now(),
      graceMs: env.SCHEDULE_GRACE_MINUTES * 60_000,
    });
  }

  const waitHistory = new PrismaWaitHistory(db);
  const backups = wireBackups({ env, db, registry: metrics.registry, log, clock });

  let stopping = false;
  const probes = createProbes({
    env,
    db,
    redis,
    issuer,
    replication,
    leader: () => scheduler?.isLeader() ?? false,
    backup: () => backups?.state() ?? { state: "off" },
    stopping: () => stopping,
  });

  return {
    env,
    log,
    db,
    redis,
    io,
    tenants,
    tenantRepo,
    access,
    orders,
    shifts,
    audit,
    reports: new ReportService({ store: new PrismaReportStore(db), clock, waits: waitHistory }),
    waits: new WaitEstimates({ history: waitHistory, clock }),
    settings: new SettingsService({ store: new PrismaSettingsStore(db), invalidate, events }),
    series: new SeriesService({ store: new PrismaSeriesStore(db), invalidate, events }),
    stations: new StationService({ store: new PrismaStationStore(db), printers: printerStore, invalidate, events }),
    keys: new ApiKeyService({ store: new PrismaApiKeyStore(db), generate: generateApiKey, invalidate }),
    staffCodes: new StaffCodeService({ store: staffCodeStore, generate: generateStaffSecret, hash: hashSecret, invalidate }),
    staff: new StaffService({ store: staffMembers, hash: hashSecret, verify: verifySecret, invalidate, clock }),
    menu,
    webhooks: new WebhookService({
      store: new PrismaWebhookStore(db, secretCipher, outbox),
      resolve: resolveHost,
      generateSecret: generateWebhookSecret,
      policy: webhookPolicy,
      invalidate,
    }),
    printers,
    metrics,
    push: push.feature,
    throttles,
    voice,
    async warmUp() {
      // Before the first order: an order's transaction inserts into the queue's tables.
      await Promise.all([warmUpRedis(redis, log), webhookQueue.start()]);
      await push.warmUp();
      // Read once before the first order (the start's log says the replication), then every few seconds.
      await replication.check();
      replication.start();
    },
    async startWorkers() {
      await webhookQueue.work(WEBHOOK_WORKERS, (deliveryId, jobId) => dispatcher.attempt(deliveryId, jobId));
      await printing.start();
      await push.start();
      backups?.start();
    },
    counterSource: () => issuer.source(),
    scheduler,
    backups,
    leader: () => scheduler?.isLeader() ?? false,
    health: () => probes.health(),
    replication,
    readiness: () => probes.readiness(),
    beginShutdown() {
      stopping = true;
    },
    /** Quits Redis and disconnects Prisma; close the HTTP server and `io`, and stop the scheduler, first. */
    async close() {
      // io.close() made the Socket.IO adapter unsubscribe without waiting for the replies;
      // replies come in order, so a PING answered means those were answered too.
      if (!(sub instanceof Cluster)) {
        await sub.ping().catch(() => {});
      } else if (sub.status === "ready") {
        // A Cluster sends PING to a data node, not to its subscriber connection: there a
        // PUNSUBSCRIBE (of nothing left) travels behind the adapter's. Its offline queue
        // would hold it for as long as the cluster is unreachable, hence the status check
        // and the bound.
        await Promise.race([sub.punsubscribe().catch(() => {}), new Promise((r) => setTimeout(r, 1_000).unref())]);
      }
      printing.stop();
      push.stop();
      backups?.stop();
      // Attempts and drains in flight finish (bounded); the others stay queued for another node.
      await webhookQueue.stop().catch((e: unknown) => log.warn({ err: e instanceof Error ? e.message : String(e) }, "could not stop the webhook queue"));
      counter.shutdown();
      replication.stop();
      voice?.close();
      await Promise.allSettled([redis.quit(), pub.quit(), sub.quit(), bus.close()]);
      await Promise.allSettled([db.$disconnect(), ledgerPool.end()]);
    },
  };
}
