/**
 * The one place where failures of our dependencies become AppErrors: Redis or
 * PostgreSQL unreachable is 503 (the client may retry), never a bare 500.
 *
 * Every check reads what a library defines for its errors (a class, a code), never the
 * message text. Adapters that would otherwise surface an untyped error throw
 * UnavailableError (lib/core/ports/): the counter (CounterUnavailableError, which also
 * covers its circuit breaker's errors) and the pg pools (lib/adapters/postgres/pool.server.ts).
 */
import { ReplyError } from "ioredis";
import pg from "pg";
import { AppError, isAppError } from "@/lib/core/errors";
import { isUnavailableError, type Store } from "@/lib/core/ports";

/**
 * redis-errors' base class (ioredis re-exports only ReplyError, its subclass). Its other
 * subclasses mean the client gave up on the connection: AbortError, MaxRetriesPerRequestError,
 * ClusterAllFailedError, ParserError.
 */
const RedisError = Object.getPrototypeOf(ReplyError) as abstract new (...args: never[]) => Error;

/**
 * Error replies that mean "not now": cluster down, a replica or a loading node answering,
 * a failover in progress, a script hogging the server. A reply's first word is its error
 * code (RESP spec): reading it reads a protocol field, not the message.
 */
const REDIS_NOT_NOW = new Set(["CLUSTERDOWN", "LOADING", "READONLY", "MASTERDOWN", "TRYAGAIN", "BUSY"]);

/** SQLSTATEs of a server that cannot serve us now: class 08 (connection exception), shutdown, starting up, out of connections. */
export function unavailableSqlState(code: unknown): boolean {
  return typeof code === "string" && (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300");
}

/** Prisma's codes for the same: cannot reach, timed out, connection closed, pool timeout, too many connections. */
const PRISMA_UNAVAILABLE = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);

/** The driver adapter's error kinds (@prisma/driver-adapter-utils MappedError) for an unreachable database. */
const ADAPTER_UNAVAILABLE = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);

/** Node's system errors (a `code` with the `syscall` that failed) for a peer that cannot be reached. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "ECONNABORTED"]);

type Fields = { name?: unknown; code?: unknown; syscall?: unknown; meta?: unknown; cause?: unknown };

/**
 * Prisma's errors by their `name`, as Prisma's own isDriverAdapterError does: server.ts and
 * Next.js's bundle may load different copies of Prisma's runtime, so instanceof is unreliable.
 */
const prismaError = (e: Fields, name: string): boolean => e.name === name;

/** A DriverAdapterError (its `cause` is the adapter's MappedError) for an unreachable database. */
function adapterUnavailable(e: unknown): boolean {
  if (typeof e !== "object" || e === null || (e as Fields).name !== "DriverAdapterError") return false;
  const cause = (e as Fields).cause as { kind?: unknown; code?: unknown; originalCode?: unknown } | undefined;
  if (typeof cause !== "object" || cause === null) return false;
  return ADAPTER_UNAVAILABLE.has(String(cause.kind)) || (cause.kind === "postgres" && unavailableSqlState(cause.originalCode ?? cause.code));
}

/** Which store `e` says is unreachable ("unknown": a network failure of no known store); null when it is not an outage. */
export function unavailableStore(e: unknown): Store | "unknown" | null {
  if (typeof e !== "object" || e === null) return null;
  if (isUnavailableError(e)) return e.store;
  if (e instanceof ReplyError) return REDIS_NOT_NOW.has(String((e as Error).message).split(" ", 1)[0]!) ? "redis" : null;
  if (e instanceof RedisError) return "redis";
  if (e instanceof pg.DatabaseError) return unavailableSqlState(e.code) ? "database" : null;
  const f = e as Fields;
  if (prismaError(f, "PrismaClientKnownRequestError")) {
    return PRISMA_UNAVAILABLE.has(String(f.code)) || adapterUnavailable((f.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError)
      ? "database"
      : null;
  }
  if (prismaError(f, "PrismaClientInitializationError") || adapterUnavailable(e)) return "database";
  if (typeof f.syscall === "string" && NETWORK_CODES.has(String(f.code))) return "unknown";
  return null;
}

const UNAVAILABLE: Record<Store | "unknown", { what: string; userMessage: string }> = {
  database: { what: "Database", userMessage: "The database is unavailable. Please try again in a moment." },
  redis: { what: "Redis", userMessage: "The number counter is unavailable. Please try again in a moment." },
  unknown: { what: "A dependency", userMessage: "The service is unavailable. Please try again in a moment." },
};

export function translateError(e: unknown): AppError | null {
  if (isAppError(e)) return e;
  const store = unavailableStore(e);
  if (!store) return null;
  const { what, userMessage } = UNAVAILABLE[store];
  return new AppError("UNAVAILABLE", { message: `${what} unavailable: ${e instanceof Error ? e.message : String(e)}`, userMessage, cause: e });
}

/** Like translateError, but every unknown failure becomes INTERNAL (and should be logged as a bug). */
export function toAppError(e: unknown): AppError {
  return (
    translateError(e) ??
    new AppError("INTERNAL", {
      message: e instanceof Error ? e.message : String(e),
      userMessage: "Something went wrong on our side. Please try again.",
      cause: e,
    })
  );
}
