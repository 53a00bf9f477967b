/**
 * The counter of queue numbers as a node runs it: Redis's blocks over PostgreSQL's
 * ceilings (decisions 0002, 0007), and the watch on the database's history that guards
 * every number taken from PostgreSQL alone (decisions 0028, 0032).
 */
import type pg from "pg";
import type { Cluster, Redis } from "ioredis";
import { NumberIssuer, REFILL_WAIT_MS } from "@/lib/core/numbering";
import { ReplicationWatch } from "@/lib/core/replication-watch";
import type { AuditLog, Clock } from "@/lib/core/ports";
import { RedisCounter } from "@/lib/adapters/redis/counter.server";
import { RedisHistoryMark } from "@/lib/adapters/redis/history-mark.server";
import { createLedgerPool, PgCounterLedger } from "@/lib/adapters/postgres/counter-ledger.server";
import { PgDatabaseFacts } from "@/lib/adapters/postgres/database-facts.server";
import type { Env } from "../env.server";
import type { Logger } from "../ops/logger.server";
import type { AppMetrics } from "../ops/metrics.server";

export interface Numbering {
  counter: RedisCounter;
  issuer: NumberIssuer;
  replication: ReplicationWatch;
  /** The ledger's own pool, ended by the app's close(). */
  ledgerPool: pg.Pool;
}

export function wireNumbering(deps: {
  env: Pick<Env, "REDIS_KEY_PREFIX" | "COUNTER_TIMEOUT_MS" | "COUNTER_PROBE_MS"> & { DATABASE_URL: string };
  redis: Redis | Cluster;
  log: Logger;
  clock: Clock;
  audit: AuditLog;
  metrics: AppMetrics;
}): Numbering {
  const { env, redis, log, clock, audit, metrics } = deps;
  const counter = new RedisCounter(redis, env.REDIS_KEY_PREFIX, log, {
    timeoutMs: env.COUNTER_TIMEOUT_MS,
    resetMs: env.COUNTER_PROBE_MS,
  });
  counter.onSwitch((to) => metrics.counterSwitched(to));
  // The counter's reservations get their own small pool: a block must never queue behind
  // a burst of order inserts, or cashiers would wait on it and fall back to the database.
  const ledgerPool = createLedgerPool(env.DATABASE_URL, log);
  const ledger = new PgCounterLedger(ledgerPool);
  const replication = new ReplicationWatch({
    facts: new PgDatabaseFacts(ledgerPool),
    mark: new RedisHistoryMark(redis, env.REDIS_KEY_PREFIX),
    jumper: ledger,
    log,
    audit,
    metrics,
  });
  const issuer = new NumberIssuer(counter, ledger, clock, log, REFILL_WAIT_MS, {
    ceilingBehind: () => metrics.ceilingBehind(),
    // Numbers from PostgreSQL alone wait for a fresh reading of its history, and are refused without one (decision 0032).
    beforeLedgerNumbers: () => replication.fresh(),
  });
  return { counter, issuer, replication, ledgerPool };
}
