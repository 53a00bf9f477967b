/**
 * Prometheus metrics (prom-client), one registry per app. Every label has a fixed, small
 * set of values (route patterns, channels, statuses): never a raw path, slug or id.
 * The list with meanings is in the README ("Operating").
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { CHANNELS, ORDER_STATUSES, type OrderStatus } from "@/lib/core/orders";
import type { Metrics, DeliveryOutcome, WebhookMetrics, PrintMetrics, PrintOutcome, BackupMetrics, PushMetrics } from "@/lib/core/ports";
import type { Tenant } from "@/lib/core/tenants";
import { REPLICATIONS, type Replication } from "@/lib/core/replication";
import type { VoiceMetrics } from "@/lib/adapters/voice/voice.server";
import { GUARD_REFUSALS, type GuardRefusal } from "@/lib/core/replication-watch";
import type { PushOutcome } from "@/lib/core/push/push-retry";

type CounterSource = "redis" | "database";

export interface AppMetrics extends Metrics {
  registry: Registry;
  /** One HTTP request answered (or abandoned by the client: status "499"), by route pattern. */
  httpRequest(labels: { method: string; route: string; status: string }, seconds: number): void;
  /** Numbers switched to PostgreSQL (`database`) or back to Redis. */
  counterSwitched(to: CounterSource): void;
  /** A block reservation found the ledger below what Redis handed out (decision 0028). */
  ceilingBehind(): void;
  /** Ceilings raised after the database's history went back (decision 0028). */
  ceilingsJumped(count: number): void;
  /** A number from the database alone refused: a failover could not be ruled out (decision 0032). */
  guardRefused(reason: GuardRefusal): void;
}

/** What the gauges read at each scrape (no I/O). */
export interface MetricSources {
  /** Where this node takes numbers from now. */
  counterSource(): CounterSource;
  /** Whether this node leads the scheduler now. */
  leader(): boolean;
  /** Socket.IO connections open on this node. */
  sockets(): number;
  /** The database's replication as last read (decision 0028). */
  replication(): Replication;
}

const HTTP_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function createMetrics(sources: MetricSources): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: "nextup_counter_redis",
    help: "1 while this node takes numbers from Redis, 0 while it takes them from PostgreSQL (Redis unreachable).",
    registers: [registry],
    collect() {
      this.set(sources.counterSource() === "redis" ? 1 : 0);
    },
  });
  new Gauge({
    name: "nextup_scheduler_leader",
    help: "1 while this node leads the scheduler (starts scheduled shifts), else 0; exactly one node should show 1.",
    registers: [registry],
    collect() {
      this.set(sources.leader() ? 1 : 0);
    },
  });
  new Gauge({
    name: "nextup_sockets_connected",
    help: "Socket.IO connections (boards, kitchen screens, customers' phones) open on this node.",
    registers: [registry],
    collect() {
      this.set(sources.sockets());
    },
  });
  new Gauge({
    name: "nextup_db_replication",
    help: "1 for the PostgreSQL replication this node last read (kind=sync|async|none|unknown), 0 for the others; async: orders acknowledged just before a database failover can be lost (numbers never repeat).",
    labelNames: ["kind"],
    registers: [registry],
    collect() {
      const now = sources.replication();
      for (const kind of REPLICATIONS) this.set({ kind }, kind === now ? 1 : 0);
    },
  });
  const behind = new Counter({
    name: "nextup_counter_ceiling_behind_total",
    help: "Block reservations that found PostgreSQL's ceiling below what Redis had handed out (a database failover lost writes); the block started above Redis's numbers.",
    registers: [registry],
  });
  const jumped = new Counter({
    name: "nextup_counter_ceilings_jumped_total",
    help: "Counters' ceilings raised past possibly lost numbers after the database's history went back (a standby promoted).",
    registers: [registry],
  });
  const refusals = new Counter({
    name: "nextup_counter_guard_refusals_total",
    help: "Numbers from PostgreSQL alone (Redis unreachable or emptied) refused with 503 because a database failover could not be ruled out, by reason: reading (the history could not be read), jump (a jump past a failover failed), history (the role may not read it, replication async or unknown), baseline (no earlier reading here and Redis unreachable).",
    labelNames: ["reason"],
    registers: [registry],
  });
  const duplicates = new Counter({
    name: "nextup_duplicate_numbers_total",
    help: "Numbers the counter issued that the database refused as already stored (should stay 0).",
    labelNames: ["tenant"],
    registers: [registry],
  });
  const uniqueViolations = new Counter({
    name: "nextup_unique_violations_total",
    help: "Order inserts the unique index refused and the server handled: index=number drew another number and retried (should stay 0); index=idempotency_key answered a concurrent retry's order; index=open_number skipped a number an open order still shows (decision 0027).",
    labelNames: ["index"],
    registers: [registry],
  });
  const switches = new Counter({
    name: "nextup_counter_switches_total",
    help: "Times this node's numbers switched source: to=database when Redis failed, to=redis when it came back.",
    labelNames: ["to"],
    registers: [registry],
  });
  const orders = new Counter({
    name: "nextup_orders_total",
    help: "Orders stored by this node, by channel (replayed idempotent retries not counted).",
    labelNames: ["channel"],
    registers: [registry],
  });
  const statusChanges = new Counter({
    name: "nextup_order_status_changes_total",
    help: "Orders moved to a status (READY, COLLECTED, CANCELLED, or back to PLACED/READY by an undo) on this node.",
    labelNames: ["status"],
    registers: [registry],
  });
  const issue = new Histogram({
    name: "nextup_number_issue_duration_seconds",
    help: "Time to issue one order's number, by where it came from (redis: a reserved block; database: PostgreSQL directly).",
    labelNames: ["source"],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const http = new Histogram({
    name: "nextup_http_request_duration_seconds",
    help: "HTTP requests handled by Next.js on this node, by method, route pattern (e.g. /api/v1/orgs/[slug]/orders) and status; 499: the client went away first.",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });

  // Series that exist before their first event, so rate() and alerts see a 0, not nothing.
  for (const c of CHANNELS) orders.inc({ channel: c }, 0);
  for (const s of ORDER_STATUSES) statusChanges.inc({ status: s }, 0);
  for (const to of ["redis", "database"]) switches.inc({ to }, 0);
  for (const index of ["number", "idempotency_key", "open_number"]) uniqueViolations.inc({ index }, 0);
  for (const source of ["redis", "database"]) issue.zero({ source });
  for (const reason of GUARD_REFUSALS) refusals.inc({ reason }, 0);

  return {
    registry,
    duplicateNumber: (tenant: Tenant) => duplicates.inc({ tenant: tenant.slug }),
    uniqueViolation: (index) =>
      uniqueViolations.inc({ index: index === "idempotencyKey" ? "idempotency_key" : index === "openNumber" ? "open_number" : "number" }),
    numberIssued: (source, seconds) => issue.observe({ source }, seconds),
    orderPlaced: (channel) => orders.inc({ channel: (CHANNELS as readonly string[]).includes(channel) ? channel : "other" }),
    orderStatusChanged: (status: OrderStatus) => statusChanges.inc({ status }),
    counterSwitched: (to) => switches.inc({ to }),
    ceilingBehind: () => behind.inc(),
    ceilingsJumped: (count) => jumped.inc(count),
    guardRefused: (reason) => refusals.inc({ reason }),
    httpRequest: ({ method, route, status }, seconds) => http.observe({ method: HTTP_METHODS.has(method) ? method : "other", route, status }, seconds),
  };
}

/**
 * Webhook metrics (kept apart from createMetrics): attempts by outcome, and the messages
 * waiting in the outbox across all tenants, counted at each scrape.
 */
export function registerWebhookMetrics(registry: Registry, pending: () => Promise<number>): WebhookMetrics {
  const deliveries = new Counter({
    name: "nextup_webhook_deliveries_total",
    help: "Webhook attempts by outcome: delivered (2xx), retrying (failed, another attempt scheduled), gave_up (failed, none left), failed (could not be made: an error in Nextup; the queue runs it again), deferred (not made yet: its restaurant had its share of the node's workers).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  for (const outcome of ["delivered", "retrying", "gave_up", "failed"]) deliveries.inc({ outcome }, 0);
  new Gauge({
    name: "nextup_webhook_queue_depth",
    help: "Webhook messages neither delivered nor given up yet (all tenants).",
    registers: [registry],
    async collect() {
      // The database down: NaN (unknown) rather than a failed scrape.
      this.set(await pending().catch(() => NaN));
    },
  });
  return { delivery: (outcome: DeliveryOutcome) => deliveries.inc({ outcome }) };
}

/** Web Push (decision 0053): sends by outcome, and whether push is on. */
export function registerPushMetrics(registry: Registry, enabled: () => boolean): PushMetrics {
  const sends = new Counter({
    name: "nextup_push_sends_total",
    help: "Web Push sends by outcome: delivered (2xx), gone (404/410: subscription deleted), retrying (429/5xx/no answer, another try within the window), gave_up (refused: 400/401/403/413, or an endpoint no longer allowed), expired (the 30-minute window closed first), skipped (the order was no longer ready), deferred (its restaurant had its share of the node's workers).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  for (const outcome of ["delivered", "gone", "retrying", "gave_up", "expired", "skipped"]) sends.inc({ outcome }, 0);
  new Gauge({
    name: "nextup_push_enabled",
    help: "1 when Web Push is on (PUSH_CONTACT valid and the VAPID key readable), else 0.",
    registers: [registry],
    collect() {
      this.set(enabled() ? 1 : 0);
    },
  });
  return { send: (outcome: PushOutcome) => sends.inc({ outcome }) };
}

/** Scheduled backups (decision 0049): runs by outcome, and when the last good one finished. */
export function registerBackupMetrics(registry: Registry): BackupMetrics {
  const runs = new Counter({
    name: "nextup_backups_total",
    help: "Scheduled backups this node made, by outcome: ok, failed (the log says why).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  for (const outcome of ["ok", "failed"]) runs.inc({ outcome }, 0);
  const last = new Gauge({
    name: "nextup_backup_last_success_timestamp_seconds",
    help: "When this node's last scheduled backup succeeded (Unix time); 0 before the first.",
    registers: [registry],
  });
  return {
    run(outcome, at) {
      runs.inc({ outcome });
      if (outcome === "ok") last.set(at.getTime() / 1000);
    },
  };
}

export function registerPrintMetrics(registry: Registry, waiting: () => Promise<number>): PrintMetrics {
  const jobs = new Counter({
    name: "nextup_print_jobs_total",
    help: "Print jobs by outcome: printed, retried (the printer could not print: offline, out of paper, cover open; the job waits), gave_up (older than the restaurant's give-up age).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  for (const outcome of ["printed", "retried", "gave_up"]) jobs.inc({ outcome }, 0);
  new Gauge({
    name: "nextup_print_queue_depth",
    help: "Print jobs waiting for their printer (all tenants).",
    registers: [registry],
    async collect() {
      this.set(await waiting().catch(() => NaN));
    },
  });
  return { job: (outcome: PrintOutcome) => jobs.inc({ outcome }) };
}

export function registerVoiceMetrics(registry: Registry): VoiceMetrics {
  const renders = new Counter({
    name: "nextup_voice_renders_total",
    help: "Voice clips rendered by eSpeak NG, by lane: board (numbers made ready or called again, rendered ahead or asked for) or public (any other held number a client asked for).",
    labelNames: ["lane"],
    registers: [registry],
  });
  const refused = new Counter({
    name: "nextup_voice_refused_total",
    help: "Clients' voice renders refused: busy (the public queue was full, 503) or address (the client's own bounds, 429).",
    labelNames: ["reason"],
    registers: [registry],
  });
  for (const lane of ["board", "public"]) renders.inc({ lane }, 0);
  for (const reason of ["busy", "address"]) refused.inc({ reason }, 0);
  return { rendered: (lane) => renders.inc({ lane }), refused: (reason) => refused.inc({ reason }) };
}
