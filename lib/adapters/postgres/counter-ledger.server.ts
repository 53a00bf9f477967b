/**
 * The counter's durable side (the core's CounterLedger): the ceilings of
 * docs/decisions/0006 in table "CounterCeiling", and those of the other number series'
 * tickets in "SeriesCeiling" (decision 0027).
 *
 * These statements run once per block of numbers and, while Redis is unavailable, once
 * per number; they go through node-postgres directly. Prisma (everything else) costs
 * 1.5 to 3 times pg's CPU per statement, and more per returned row (measured in
 * docs/decisions/0007): on the counter's path that is the difference between the database
 * fallback keeping up with a lunch rush or not. The table itself stays in the Prisma
 * schema and migrations.
 *
 * `reserve` (the block refills, one every 40 numbers per busy tenant) is batched: the
 * reservations asked for in one turn of the event loop go to PostgreSQL as one statement.
 * `reserveCurrent` (lost counters, and `issueDirect`: every number while Redis is down) is
 * batched the same way.
 *
 * This module is the one writer of the ceilings: besides the ledger's own statements, a new
 * shift's first block is reserved here (`reserveFirstBlock`, and `giveBackFirstBlock`), in the
 * shift's own Prisma transaction so that the shift and its numbers are recorded together.
 */
import type DataLoader from "dataloader";
import type pg from "pg";
import type { BusinessDay } from "@/lib/core/business-day";
import {
  tenantOfCounter,
  type Logger,
  type Block,
  type CeilingJump,
  type CeilingJumper,
  type CounterId,
  type CounterLedger,
  type IssuedNumber,
} from "@/lib/core/ports";
import { createPool } from "./pool.server";
import type { Tx } from "./prisma.server";
import { turnBatcher } from "./turn-batcher.server";

/** The ledger's own small pool: a block must never queue behind a burst of order inserts. */
export function createLedgerPool(connectionString: string, log: Pick<Logger, "warn">, max = 4): pg.Pool {
  const pool = createPool({ connectionString, max, connectionTimeoutMillis: 5_000 });
  // An idle connection that breaks (database restart) must not crash the process.
  pool.on("error", (err) => log.warn({ err: err.message, component: "ledger" }, "database connection of the counter ledger lost"));
  return pool;
}

interface ReserveRequest {
  tenantId: string;
  /** null: the default series (table CounterCeiling); else a series' tickets (SeriesCeiling). */
  seriesId: string | null;
  day: BusinessDay;
  shift: number;
  size: number;
  /** Numbers up to here were handed out: the block starts above it (decision 0028). */
  floor: number;
}

interface CurrentRequest {
  tenantId: string;
  seriesId: string | null;
  day: BusinessDay;
  size: number;
}

/**
 * The two tables of ceilings: the default series' (CounterCeiling, which nodes of the
 * previous release write) and the other series' (SeriesCeiling: one more key column).
 * The statements below are written once for both.
 */
interface CeilingTable {
  table: string;
  /** Its key columns before (businessDay, shift). */
  key: readonly string[];
}
const DEFAULT_CEILINGS: CeilingTable = { table: `"CounterCeiling"`, key: [`"tenantId"`] };
const SERIES_CEILINGS: CeilingTable = { table: `"SeriesCeiling"`, key: [`"tenantId"`, `"seriesId"`] };

const seriesOf = (c: CounterId): string | null => (typeof c === "string" ? null : c.seriesId);
const rowId = (r: { tenantId: string; seriesId: string | null; day: BusinessDay; shift: number }) => `${r.tenantId}/${r.seriesId ?? ""}/${r.day}/${r.shift}`;

/** Runs `batch` once per table its requests belong to; answers in request order. */
async function perTable<R extends { seriesId: string | null }, A>(requests: readonly R[], batch: (t: CeilingTable, rs: R[]) => Promise<A[]>): Promise<A[]> {
  const answers = new Array<A>(requests.length);
  const groups: [CeilingTable, number[]][] = [
    [DEFAULT_CEILINGS, []],
    [SERIES_CEILINGS, []],
  ];
  requests.forEach((r, i) => groups[r.seriesId === null ? 0 : 1]![1].push(i));
  await Promise.all(
    groups
      .filter(([, at]) => at.length > 0)
      .map(async ([t, at]) =>
        (
          await batch(
            t,
            at.map((i) => requests[i]!),
          )
        ).forEach((a, j) => (answers[at[j]!] = a)),
      ),
  );
  return answers;
}

export class PgCounterLedger implements CounterLedger, CeilingJumper {
  private readonly reservations: DataLoader<ReserveRequest, Block | null>;
  private readonly currentReservations: DataLoader<CurrentRequest, Block>;

  constructor(private readonly pool: pg.Pool) {
    this.reservations = turnBatcher({ many: (requests) => perTable(requests, (t, rs) => this.reserveBatch(t, rs)), maxBatchSize: 500 });
    this.currentReservations = turnBatcher({
      many: (requests) => perTable(requests, (t, rs) => this.reserveCurrentBatch(t, rs)),
      one: async (request) => {
        if (request.seriesId === null) return this.reserveCurrentOne(request);
        const [block] = await this.reserveCurrentBatch(SERIES_CEILINGS, [request]);
        if (block instanceof Error) throw block;
        return block!;
      },
      maxBatchSize: 500,
    });
  }

  async reserve(counter: CounterId, day: BusinessDay, shift: number, size: number, floor = 0): Promise<Block> {
    const block = await this.reservations.load({ tenantId: tenantOfCounter(counter), seriesId: seriesOf(counter), day, shift, size, floor });
    return block ?? this.reserveCurrent(counter, day, size);
  }

  /**
   * One statement for a batch of reservations in one table. Each (tenant[, series], day,
   * shift) is reserved in `shift` only if no later shift of the day exists (null: the
   * caller's view was stale); requests for the same one share a single row update and split
   * its range in order. Rows are locked in key order, so two nodes' batches cannot deadlock.
   * The ceiling first rises to the highest floor asked for: a ceiling below it had forgotten
   * blocks (decision 0028), and the answer says by how much (read before the update).
   */
  private async reserveBatch(t: CeilingTable, requests: readonly ReserveRequest[]): Promise<(Block | null)[]> {
    type Row = { tenantId: string; seriesId: string | null; day: BusinessDay; shift: number; size: number; floor: number; at: number[] };
    const rows = new Map<string, Row>();
    requests.forEach((r, i) => {
      const id = rowId(r);
      const row = rows.get(id);
      if (row) {
        row.size += r.size;
        row.floor = Math.max(row.floor, r.floor);
        row.at.push(i);
      } else rows.set(id, { tenantId: r.tenantId, seriesId: r.seriesId, day: r.day, shift: r.shift, size: r.size, floor: r.floor, at: [i] });
    });
    const want = [...rows.values()];
    const series = t === SERIES_CEILINGS;
    const key = t.key.join(", ");
    const sameRow = (a: string, b: string) => [...t.key, `"businessDay"`, `"shift"`].map((c) => `${a}.${c} = ${b}.${c}`).join(" AND ");
    const { rows: reserved } = await this.pool.query<{
      tenantId: string;
      seriesId?: string;
      businessDay: string;
      shift: number;
      ceiling: number;
      before: number | null;
    }>(
      `WITH req AS (
         SELECT * FROM unnest($1::uuid[], $2::date[], $3::int[], $4::int[], $5::int[]${series ? ", $6::uuid[]" : ""})
           AS r("tenantId", "businessDay", "shift", "size", "floor"${series ? `, "seriesId"` : ""})
         WHERE COALESCE((
           SELECT MAX(s."number") FROM "Shift" s WHERE s."tenantId" = r."tenantId" AND s."businessDay" = r."businessDay"
         ), 1) <= r."shift"
       ), before AS (
         SELECT c.*, c."ceiling" AS "before" FROM ${t.table} c JOIN req ON ${sameRow("c", "req")}
       ), up AS (
         INSERT INTO ${t.table} (${key}, "businessDay", "shift", "ceiling")
         SELECT ${t.key.map((c) => `req.${c}`).join(", ")}, req."businessDay", req."shift", req."floor" + req."size" FROM req
         ORDER BY ${t.key.map((_, i) => i + 1).join(", ")}, ${t.key.length + 1}, ${t.key.length + 2}
         ON CONFLICT (${key}, "businessDay", "shift")
           DO UPDATE SET "ceiling" = GREATEST(
             ${t.table}."ceiling" + (SELECT req."size" FROM req WHERE ${sameRow("req", "EXCLUDED")}),
             EXCLUDED."ceiling"
           ), "updatedAt" = now()
         RETURNING ${key}, "businessDay", "shift", "ceiling"
       )
       SELECT ${t.key.map((c) => `up.${c}`).join(", ")}, to_char(up."businessDay", 'YYYY-MM-DD') AS "businessDay", up."shift", up."ceiling", before."before"
       FROM up LEFT JOIN before ON ${sameRow("before", "up")}`,
      [
        want.map((w) => w.tenantId),
        want.map((w) => w.day),
        want.map((w) => w.shift),
        want.map((w) => w.size),
        want.map((w) => w.floor),
        ...(series ? [want.map((w) => w.seriesId)] : []),
      ],
    );
    const answers = new Map(reserved.map((r) => [rowId({ tenantId: r.tenantId, seriesId: r.seriesId ?? null, day: r.businessDay, shift: r.shift }), r]));
    const blocks = new Array<Block | null>(requests.length).fill(null);
    for (const [id, w] of rows) {
      const answer = answers.get(id);
      if (answer === undefined) continue;
      const behind = w.floor - (answer.before ?? 0);
      let lo = answer.ceiling - w.size;
      for (const i of w.at) {
        const size = requests[i]!.size;
        blocks[i] = { businessDay: w.day, shift: w.shift, lo, hi: lo + size, ...(behind > 0 && i === w.at[0] ? { ceilingBehind: behind } : {}) };
        lo += size;
      }
    }
    return blocks;
  }

  reserveCurrent(counter: CounterId, day: BusinessDay, size: number): Promise<Block> {
    return this.currentReservations.load({ tenantId: tenantOfCounter(counter), seriesId: seriesOf(counter), day, size });
  }

  /**
   * One statement for a batch of `reserveCurrent`s in one table. The business day only moves
   * forward: if another node already numbers the next day (its clock is ahead of ours by
   * less than a day), follow it. The current shift is the latest one a manager started that
   * day (1 when none). Requests that land on the same row share one update, split in request
   * order; rows are locked in key order, as in `reserveBatch`.
   */
  private async reserveCurrentBatch(t: CeilingTable, requests: readonly CurrentRequest[]): Promise<(Block | Error)[]> {
    const series = t === SERIES_CEILINGS;
    const key = t.key.join(", ");
    const partition = `${t.key.map((c) => `t.${c}`).join(", ")}, t."businessDay", t."shift"`;
    const { rows } = await this.pool.query<{ i: number; businessDay: string; shift: number; lo: number }>(
      `WITH req AS (
         SELECT r."tenantId", r."day", r."size", ${series ? `r."seriesId", ` : ""}r."i"::int AS "i"
         FROM unnest($1::uuid[], $2::date[], $3::int[]${series ? ", $4::uuid[]" : ""}) WITH ORDINALITY
           AS r("tenantId", "day", "size", ${series ? `"seriesId", ` : ""}"i")
       ), d AS (
         SELECT req.*, GREATEST(req."day", COALESCE((
           SELECT MAX(c."businessDay") FROM ${t.table} c
           WHERE ${t.key.map((c) => `c.${c} = req.${c}`).join(" AND ")} AND c."businessDay" <= req."day" + 1
         ), req."day")) AS "businessDay" FROM req
       ), target AS (
         SELECT d.*, COALESCE((
           SELECT MAX(s."number") FROM "Shift" s WHERE s."tenantId" = d."tenantId" AND s."businessDay" = d."businessDay"
         ), 1) AS "shift" FROM d
       ), up AS (
         INSERT INTO ${t.table} (${key}, "businessDay", "shift", "ceiling")
         SELECT ${key}, "businessDay", "shift", SUM("size") FROM target
         GROUP BY ${t.key.map((_, i) => i + 1).join(", ")}, ${t.key.length + 1}, ${t.key.length + 2}
         ORDER BY ${t.key.map((_, i) => i + 1).join(", ")}, ${t.key.length + 1}, ${t.key.length + 2}
         ON CONFLICT (${key}, "businessDay", "shift")
           DO UPDATE SET "ceiling" = ${t.table}."ceiling" + EXCLUDED."ceiling", "updatedAt" = now()
         RETURNING ${key}, "businessDay", "shift", "ceiling"
       )
       SELECT t."i", to_char(t."businessDay", 'YYYY-MM-DD') AS "businessDay", t."shift",
         (up."ceiling"
           - SUM(t."size") OVER (PARTITION BY ${partition})
           + SUM(t."size") OVER (PARTITION BY ${partition} ORDER BY t."i")
           - t."size")::int AS "lo"
       FROM target t JOIN up USING (${key}, "businessDay", "shift")`,
      [requests.map((r) => r.tenantId), requests.map((r) => r.day), requests.map((r) => r.size), ...(series ? [requests.map((r) => r.seriesId)] : [])],
    );
    const blocks: (Block | Error)[] = requests.map(() => new Error("reserveCurrent returned no row"));
    for (const row of rows) {
      const size = requests[row.i - 1]!.size;
      blocks[row.i - 1] = { businessDay: row.businessDay, shift: row.shift, lo: row.lo, hi: row.lo + size };
    }
    return blocks;
  }

  /** `reserveCurrent` of the default series alone in its turn (the fallback at a steady rate): the same rules in a single-row statement. */
  private async reserveCurrentOne({ tenantId, day, size }: CurrentRequest): Promise<Block> {
    const { rows } = await this.pool.query<{ businessDay: string; shift: number; ceiling: number }>(
      `WITH d AS (
         SELECT GREATEST($2::date, COALESCE((
           SELECT MAX("businessDay") FROM "CounterCeiling"
           WHERE "tenantId" = $1::uuid AND "businessDay" <= $2::date + 1
         ), $2::date)) AS day
       ), latest AS (
         SELECT d.day, COALESCE((
           SELECT MAX(s."number") FROM "Shift" s WHERE s."tenantId" = $1::uuid AND s."businessDay" = d.day
         ), 1) AS shift FROM d
       )
       INSERT INTO "CounterCeiling" ("tenantId", "businessDay", "shift", "ceiling")
       SELECT $1::uuid, latest.day, latest.shift, $3::int FROM latest
       ON CONFLICT ("tenantId", "businessDay", "shift")
         DO UPDATE SET "ceiling" = "CounterCeiling"."ceiling" + $3::int, "updatedAt" = now()
       RETURNING to_char("businessDay", 'YYYY-MM-DD') AS "businessDay", "shift", "ceiling"`,
      [tenantId, day, size],
    );
    const row = rows[0];
    if (!row) throw new Error("reserveCurrent returned no row");
    return { businessDay: row.businessDay, shift: row.shift, lo: row.ceiling - size, hi: row.ceiling };
  }

  async issueDirect(counter: CounterId, day: BusinessDay): Promise<IssuedNumber> {
    const b = await this.reserveCurrent(counter, day, 1);
    return { businessDay: b.businessDay, shift: b.shift, number: b.hi };
  }

  /**
   * After a failover that lost writes (decision 0028): each ceiling of the last days rises by
   * `margin` and by the orders its counter stored in the `lookbackSeconds` before its latest
   * one (what the lost moments may have handed out at that pace). One statement per table.
   */
  async jumpPastLoss(margin: number, lookbackSeconds: number): Promise<CeilingJump[]> {
    const jumps = await Promise.all(
      [DEFAULT_CEILINGS, SERIES_CEILINGS].map(async (t) => {
        const series = t === SERIES_CEILINGS;
        const mine = (o: string) =>
          `${o}."tenantId" = c."tenantId" AND ${o}."businessDay" = c."businessDay" AND ${o}."shift" = c."shift" AND ${
            series ? `${o}."seriesId" = c."seriesId"` : `${o}."seriesId" IS NULL`
          }`;
        const { rows } = await this.pool.query<CeilingJump>(
          `WITH j AS (
             SELECT ${t.key.map((k) => `c.${k}`).join(", ")}, c."businessDay", c."shift", $1::int + (
               SELECT count(*) FROM "Order" o WHERE ${mine("o")}
                 AND o."createdAt" > (SELECT max(l."createdAt") FROM "Order" l WHERE ${mine("l")}) - make_interval(secs => $2::int)
             )::int AS "by"
             FROM ${t.table} c WHERE c."businessDay" >= current_date - 2
           )
           UPDATE ${t.table} c SET "ceiling" = c."ceiling" + j."by", "updatedAt" = now()
           FROM j WHERE ${[...t.key, `"businessDay"`, `"shift"`].map((k) => `c.${k} = j.${k}`).join(" AND ")}
           RETURNING c."tenantId", ${series ? `c."seriesId"` : "NULL::uuid"} AS "seriesId",
             ${series ? `(SELECT s.name FROM "NumberSeries" s WHERE s.id = c."seriesId")` : "NULL::text"} AS "seriesName",
             to_char(c."businessDay", 'YYYY-MM-DD') AS "businessDay",
             c."shift", c."ceiling" - j."by" AS "from", c."ceiling" AS "to"`,
          [margin, lookbackSeconds],
        );
        return rows;
      }),
    );
    return jumps.flat();
  }

  async highestStored(counter: CounterId, day: BusinessDay, shift: number): Promise<number> {
    const { rows } =
      typeof counter === "string"
        ? await this.pool.query<{ n: number | null }>(
            `SELECT MAX("number") AS n FROM "Order" WHERE "tenantId" = $1::uuid AND "businessDay" = $2::date AND "shift" = $3::int AND "seriesId" IS NULL`,
            [counter, day, shift],
          )
        : await this.pool.query<{ n: number | null }>(
            `SELECT MAX("ticket") AS n FROM "Order" WHERE "tenantId" = $1::uuid AND "businessDay" = $2::date AND "shift" = $3::int AND "seriesId" = $4::uuid`,
            [counter.tenantId, day, shift, counter.seriesId],
          );
    return rows[0]?.n ?? 0;
  }
}

/**
 * A new shift's first block, reserved in the transaction that records the shift
 * (PrismaShiftRepository.startShift): the ceiling of (tenant, day, shift) becomes
 * `firstNumber - 1 + size`, or rises by `size` where the row exists already.
 */
export async function reserveFirstBlock(tx: Tx, tenantId: string, day: BusinessDay, shift: number, firstNumber: number, size: number): Promise<Block> {
  const [reserved] = await tx.$queryRaw<{ ceiling: number }[]>`
    INSERT INTO "CounterCeiling" ("tenantId", "businessDay", "shift", "ceiling")
    VALUES (${tenantId}::uuid, ${day}::date, ${shift}, ${firstNumber - 1 + size})
    ON CONFLICT ("tenantId", "businessDay", "shift")
      DO UPDATE SET "ceiling" = "CounterCeiling"."ceiling" + ${size}, "updatedAt" = now()
    RETURNING "ceiling"`;
  const hi = reserved!.ceiling;
  return { businessDay: day, shift, lo: hi - size, hi };
}

/**
 * Gives a first block back in the same transaction when nobody will issue from it, so the
 * shift still starts at its first number when the database issues the numbers.
 */
export async function giveBackFirstBlock(tx: Tx, tenantId: string, block: Block): Promise<void> {
  await tx.$executeRaw`
    UPDATE "CounterCeiling" SET "ceiling" = "ceiling" - ${block.hi - block.lo}
    WHERE "tenantId" = ${tenantId}::uuid AND "businessDay" = ${block.businessDay}::date AND "shift" = ${block.shift}`;
}

/**
 * A restore's or an import's jump (decisions 0046, 0050): raises one counter's ceiling by `by`
 * in the caller's transaction, making the row when the day has none. Returns the ceiling after.
 */
export async function raiseCeilingBy(
  client: pg.ClientBase,
  c: { tenantId: string; seriesId: string | null; day: BusinessDay; shift: number },
  by: number,
): Promise<number> {
  const { rows } =
    c.seriesId === null
      ? await client.query<{ ceiling: number }>(
          `INSERT INTO "CounterCeiling" ("tenantId", "businessDay", "shift", "ceiling") VALUES ($1::uuid, $2::date, $3::int, $4::int)
           ON CONFLICT ("tenantId", "businessDay", "shift") DO UPDATE SET "ceiling" = "CounterCeiling"."ceiling" + EXCLUDED."ceiling", "updatedAt" = now()
           RETURNING "ceiling"`,
          [c.tenantId, c.day, c.shift, by],
        )
      : await client.query<{ ceiling: number }>(
          `INSERT INTO "SeriesCeiling" ("tenantId", "seriesId", "businessDay", "shift", "ceiling") VALUES ($1::uuid, $5::uuid, $2::date, $3::int, $4::int)
           ON CONFLICT ("tenantId", "seriesId", "businessDay", "shift") DO UPDATE SET "ceiling" = "SeriesCeiling"."ceiling" + EXCLUDED."ceiling", "updatedAt" = now()
           RETURNING "ceiling"`,
          [c.tenantId, c.day, c.shift, by, c.seriesId],
        );
  return rows[0]!.ceiling;
}
