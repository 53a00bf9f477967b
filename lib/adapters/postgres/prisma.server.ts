/**
 * One PrismaClient per process over the pg driver adapter. Kept on globalThis because
 * Next.js bundles route handlers apart from server.ts: a module-level singleton would be
 * created twice.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { PrismaClient } from "./generated/prisma/client";
import { createPool } from "./pool.server";

export type Db = PrismaClient;
/** The client of an interactive transaction (`db.$transaction(async (tx) => …)`). */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

const holder = globalThis as unknown as { __nextupPrisma?: Map<string, { client: PrismaClient; pool: pg.Pool }> };

function clientAndPool(connectionString: string, max: number): { client: PrismaClient; pool: pg.Pool } {
  // Typed failures (pool.server.ts): an outage reaches the edges as UnavailableError.
  const pool = createPool({ connectionString, max, connectionTimeoutMillis: 5_000 });
  // The client owns the pool: $disconnect() ends it.
  return { client: new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }), pool };
}

export function createPrisma(connectionString: string, opts: { max?: number } = {}): PrismaClient {
  return clientAndPool(connectionString, opts.max ?? 10).client;
}

function shared(connectionString: string): { client: PrismaClient; pool: pg.Pool } {
  holder.__nextupPrisma ??= new Map();
  let made = holder.__nextupPrisma.get(connectionString);
  if (!made) {
    made = clientAndPool(connectionString, 10);
    holder.__nextupPrisma.set(connectionString, made);
  }
  return made;
}

/** The shared client for `connectionString` (created on first use). */
export function prismaFor(connectionString: string): PrismaClient {
  return shared(connectionString).client;
}

/** The shared client's connections, for the statements of the hot path written in SQL. */
export function poolFor(connectionString: string): pg.Pool {
  return shared(connectionString).pool;
}

export { Prisma } from "./generated/prisma/client";
