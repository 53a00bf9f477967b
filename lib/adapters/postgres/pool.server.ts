/**
 * The app's node-postgres pools (Prisma's and the counter ledger's). They fail typed: when
 * the pool cannot give a connection, or a connection is lost under a query, the caller gets
 * an UnavailableError("database") (cause: pg's error). pg reports those with plain Errors
 * ("Connection terminated unexpectedly", "timeout exceeded when trying to connect") that
 * only their text would tell apart; here their origin does. What the server answered (a
 * DatabaseError with its SQLSTATE) passes through unchanged.
 */
import pg from "pg";
import { isUnavailableError, UnavailableError } from "@/lib/core/ports";

type AnyCall = (...args: unknown[]) => unknown;

/** `call` with its failure passed through `type`, whether pg reports it to a callback or rejects a promise (its API has both). */
function typedFailures(call: AnyCall, type: (e: unknown) => unknown): AnyCall {
  return (...args) => {
    const at = args.findIndex((arg) => typeof arg === "function");
    if (at >= 0) {
      const callback = args[at] as (err: unknown, ...rest: unknown[]) => void;
      args[at] = (err: unknown, ...rest: unknown[]) => callback(err ? type(err) : err, ...rest);
      return call(...args);
    }
    const result = call(...args);
    return result instanceof Promise ? result.catch((e: unknown) => Promise.reject(type(e))) : result;
  };
}

function unavailable(e: unknown, what: string): unknown {
  if (isUnavailableError(e)) return e;
  return new UnavailableError("database", `Database unavailable (${what}): ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

/** Errors a connection reported before it went away: the queries it failed with them failed for that reason. */
const connectionErrors = new WeakSet<object>();

/**
 * pg's Client, remembering that its connection went away: a query that then fails with
 * anything but the server's own answer failed because of it.
 */
class LossAwareClient extends pg.Client {
  private lost = false;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // pg emits these before it fails the queries in flight (those callbacks run on a later tick).
    this.on("error", (e: unknown) => {
      this.lost = true;
      if (typeof e === "object" && e !== null) connectionErrors.add(e);
    });
    this.on("end", () => (this.lost = true));
  }

  // `any`: pg's query() has many overloads; this override forwards them all unchanged.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const query = (super.query as AnyCall).bind(this);
    return typedFailures(query, (e) => queryFailure(e, this.lost))(...(args as unknown[]));
  }
}

/** A query's failure: the server's answer stays as it is; anything else, once the connection is gone, is the outage. */
function queryFailure(e: unknown, lost: boolean): unknown {
  if (e instanceof pg.DatabaseError) return e;
  return lost || (typeof e === "object" && e !== null && connectionErrors.has(e)) ? unavailable(e, "connection lost") : e;
}

/** A failure to get a connection: the server answered with an error (bad password, no such database) stays as it is. */
function connectFailure(e: unknown): unknown {
  return e instanceof pg.DatabaseError || e instanceof TypeError ? e : unavailable(e, "no connection");
}

/** A pg.Pool whose failures to connect, and connections lost under a query, are UnavailableError("database"). */
export function createPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ ...config, Client: LossAwareClient });
  // pool.query() connects through this.connect(): both are covered.
  pool.connect = typedFailures(pool.connect.bind(pool) as AnyCall, connectFailure) as typeof pool.connect;
  pool.query = typedFailures(pool.query.bind(pool), (e) => queryFailure(e, false)) as typeof pool.query;
  return pool;
}
