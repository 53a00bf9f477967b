/**
 * One PrismaClient per process over the pg driver adapter. Kept on globalThis because
 * Next.js bundles route handlers apart from server.ts: a module-level singleton would be
 * created twice.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";

export type Db = PrismaClient;
/** The client of an interactive transaction (`db.$transaction(async (tx) => …)`). */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

const holder = globalThis as unknown as { __nextupPrisma?: Map<string, PrismaClient> };

export function createPrisma(connectionString: string, opts: { max?: number } = {}): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString, max: opts.max ?? 10, connectionTimeoutMillis: 5_000 }),
  });
}

/** The shared client for `connectionString` (created on first use). */
export function prismaFor(connectionString: string): PrismaClient {
  holder.__nextupPrisma ??= new Map();
  let client = holder.__nextupPrisma.get(connectionString);
  if (!client) {
    client = createPrisma(connectionString);
    holder.__nextupPrisma.set(connectionString, client);
  }
  return client;
}

export { Prisma } from "./generated/prisma/client";
