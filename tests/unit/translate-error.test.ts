/**
 * translateError recognises an outage by the types and codes the libraries define, with
 * error objects built as the libraries build them (ioredis 6, redis-errors, pg and
 * pg-protocol, Prisma 7 and its pg driver adapter, opossum through the counter). Produced
 * for real on closed ports and cut connections: tests/integration/outage-errors.test.ts.
 */
import { connect } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { ReplyError } from "ioredis";
import { MaxRetriesPerRequestError } from "ioredis/built/errors";
import ClusterAllFailedError from "ioredis/built/errors/ClusterAllFailedError";
import { SimpleError } from "ioredis/built/resp/errors";
import pg from "pg";
import { PrismaClientInitializationError, PrismaClientKnownRequestError } from "@prisma/client/runtime/client";
import { DriverAdapterError } from "@prisma/driver-adapter-utils";
import type { Redis } from "ioredis";
import { AppError } from "@/lib/core/errors";
import { DuplicateNumberError, UnavailableError, CounterUnavailableError } from "@/lib/core/ports";
import { RedisCounter } from "@/lib/adapters/redis/counter.server";
import { toAppError, translateError, unavailableStore } from "@/lib/server/ops/translate-error.server";

/** As pg-protocol's parser builds a server's ErrorResponse: the message, then the fields. */
function databaseError(code: string, message: string): pg.DatabaseError {
  const e = new pg.DatabaseError(message, message.length, "error");
  e.severity = "FATAL";
  e.code = code;
  return e;
}

/** As Prisma 7 reports a driver adapter's error (meta.driverAdapterError). */
function prismaKnown(code: string, cause?: ConstructorParameters<typeof DriverAdapterError>[0]): PrismaClientKnownRequestError {
  return new PrismaClientKnownRequestError(`Invalid invocation: ${code}`, {
    code,
    clientVersion: "7.10.0",
    meta: cause ? { driverAdapterError: new DriverAdapterError(cause) } : {},
  });
}

const silent = { info() {}, warn() {}, error() {} };

/** An error reply as ioredis 6 builds it (resp/decoder.js: `new SimpleError(string)`; its typings omit the message). */
const simpleError = (reply: string): Error => new (SimpleError as unknown as new (message: string) => Error)(reply);

describe("translateError: Redis", () => {
  it("a reply whose error code means 'not now' is an outage; the code is the reply's first word (RESP)", () => {
    for (const reply of [
      "CLUSTERDOWN The cluster is down",
      "LOADING Redis is loading the dataset in memory",
      "READONLY You can't write against a read only replica.",
      "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
      "TRYAGAIN Multiple keys request during rehashing of slot",
      "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.",
    ]) {
      // ioredis 6 builds replies as SimpleError, a ReplyError.
      expect(unavailableStore(simpleError(reply)), reply).toBe("redis");
      expect(unavailableStore(new ReplyError(reply)), reply).toBe("redis");
    }
  });

  it("any other reply is a bug, not an outage (500), even when its text mentions one", () => {
    for (const reply of [
      "ERR unknown command 'NOSUCHCMD', with args beginning with: ",
      "NOSCRIPT No matching script. Please use EVAL.",
      "WRONGTYPE Operation against a key holding the wrong kind of value",
      "ERR Error running script: READONLY inside",
    ]) {
      expect(unavailableStore(simpleError(reply)), reply).toBeNull();
      expect(toAppError(simpleError(reply)).code).toBe("INTERNAL");
    }
  });

  it("the client giving up on its connection is an outage: MaxRetriesPerRequestError, AbortError, ClusterAllFailedError", () => {
    const AbortError = Object.getPrototypeOf(MaxRetriesPerRequestError) as new (message: string) => Error;
    expect(AbortError.name).toBe("AbortError");
    expect(unavailableStore(new MaxRetriesPerRequestError(1))).toBe("redis");
    expect(unavailableStore(new AbortError("Command aborted due to connection close"))).toBe("redis");
    expect(unavailableStore(new ClusterAllFailedError(ClusterAllFailedError.defaultMessage, new Error("connect ECONNREFUSED")))).toBe("redis");
  });

  it("an open breaker reaches the edges as the counter's CounterUnavailableError: 503, the counter's message", async () => {
    const failing = { isCluster: false, issueNumbers: () => Promise.reject(new Error("Connection is closed.")) } as unknown as Redis;
    const counter = new RedisCounter(failing, "test:", silent, { timeoutMs: 1_000, resetMs: 60_000 });
    try {
      const first = await counter.next("t", "2030-01-01", 0, 0).catch((e: unknown) => e);
      expect(first).toBeInstanceOf(CounterUnavailableError);
      expect(counter.available()).toBe(false);
      // The breaker is open now: the call fails without Redis, with opossum's own error inside.
      const second = await counter.next("t", "2030-01-01", 0, 0).catch((e: unknown) => e);
      expect((second as Error).cause).toMatchObject({ code: "EOPENBREAKER" });
      const err = toAppError(second);
      expect(err).toMatchObject({ code: "UNAVAILABLE", httpStatus: 503, userMessage: "The number counter is unavailable. Please try again in a moment." });
    } finally {
      counter.shutdown();
    }
  });

  it("an untyped Error is never guessed at from its text: adapters type their outages", () => {
    // What the regexes used to match; ioredis and pg report these with plain Errors.
    for (const message of [
      "Connection is closed.",
      "Command timed out",
      "Stream isn't writeable and enableOfflineQueue options is false",
      "Connection terminated unexpectedly",
      "ECONNREFUSED 127.0.0.1:5432",
    ]) {
      expect(translateError(new Error(message)), message).toBeNull();
    }
  });
});

describe("translateError: PostgreSQL", () => {
  it("pg's DatabaseError by SQLSTATE: connection exceptions, shutdown, starting up, too many connections", () => {
    for (const code of ["08000", "08003", "08006", "08001", "08004", "57P01", "57P02", "57P03", "53300"]) {
      expect(unavailableStore(databaseError(code, "x")), code).toBe("database");
    }
    for (const code of ["23505", "40001", "42P01", "28P01", "57014"]) expect(unavailableStore(databaseError(code, "x")), code).toBeNull();
  });

  it("Prisma's known request errors by code, and by the driver adapter's error kind or SQLSTATE they carry", () => {
    for (const code of ["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]) expect(unavailableStore(prismaKnown(code)), code).toBe("database");
    // A raw query on an unreachable database, and one on a connection the server shut down.
    expect(unavailableStore(prismaKnown("P2010", { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 1 }))).toBe("database");
    expect(
      unavailableStore(
        prismaKnown("P2010", {
          kind: "postgres",
          code: "57P01",
          originalCode: "57P01",
          severity: "FATAL",
          message: "terminating connection due to administrator command",
          detail: undefined,
          column: undefined,
          hint: undefined,
        } as never),
      ),
    ).toBe("database");
    expect(unavailableStore(prismaKnown("P2002", { kind: "UniqueConstraintViolation", constraint: { fields: ["number"] } }))).toBeNull();
    expect(unavailableStore(prismaKnown("P2025"))).toBeNull();
  });

  it("a DriverAdapterError that escapes Prisma, and Prisma failing to start, are outages", () => {
    expect(unavailableStore(new DriverAdapterError({ kind: "ConnectionClosed" }))).toBe("database");
    expect(unavailableStore(new DriverAdapterError({ kind: "TooManyConnections", cause: "sorry, too many clients already" }))).toBe("database");
    expect(unavailableStore(new DriverAdapterError({ kind: "LengthMismatch", column: "name" }))).toBeNull();
    expect(unavailableStore(new PrismaClientInitializationError("Can't reach database server", "7.10.0"))).toBe("database");
  });

  it("the database's message and 503 for UnavailableError('database')", () => {
    const err = toAppError(new UnavailableError("database", "Database unavailable (no connection): timeout exceeded when trying to connect"));
    expect(err).toMatchObject({ code: "UNAVAILABLE", httpStatus: 503, userMessage: "The database is unavailable. Please try again in a moment." });
  });
});

describe("translateError: the rest", () => {
  it("a network failure of unknown origin (a Node system error) is a 503", async () => {
    // A real one: connecting to a port where nothing listens.
    const refused = await new Promise<Error>((resolve) => connect({ host: "127.0.0.1", port: 1 }).once("error", resolve));
    expect(refused).toMatchObject({ code: "ECONNREFUSED", syscall: "connect" });
    expect(unavailableStore(refused)).toBe("unknown");
    expect(toAppError(refused).httpStatus).toBe(503);
  });

  it("UnavailableError is recognised across module copies (Next.js bundles its own copy of lib/core)", async () => {
    vi.resetModules();
    const copy = await import("@/lib/core/ports");
    const fromCopy = new copy.UnavailableError("redis", "from the other copy");
    expect(fromCopy).not.toBeInstanceOf(UnavailableError);
    expect(unavailableStore(fromCopy)).toBe("redis");
  });

  it("AppErrors pass through; the core's own errors and anything unknown are INTERNAL", () => {
    const appError = new AppError("CONFLICT", { message: "x" });
    expect(translateError(appError)).toBe(appError);
    expect(translateError(new DuplicateNumberError("2030-01-01", 1, 7))).toBeNull();
    expect(translateError("a string")).toBeNull();
    expect(toAppError(new TypeError("undefined is not a function"))).toMatchObject({ code: "INTERNAL", httpStatus: 500 });
  });
});
