/**
 * The counter's durable side (the core's CounterLedger): the ceilings of
 * docs/decisions/0006 in table "CounterCeiling".
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
import type { Logger, Block, CounterId, CounterLedger, IssuedNumber, SeriesCounter } from "@/lib/core/ports";
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
  day: BusinessDay;
  shift: number;
  size: number;
}

interface CurrentRequest {
  tenantId: string;
  day: BusinessDay;
  size: number;
}

export class PgCounterLedger implements CounterLedger {
  private readonly reservations: DataLoader<ReserveRequest, Block | null>;
  private readonly currentReservations: DataLoader<CurrentRequest, Block>;

  constructor(private readonly pool: pg.Pool) {
    this.reservations = turnBatcher({ many: (requests) => this.reserveBatch(requests), maxBatchSize: 500 });
    this.currentReservations = turnBatcher({
      many: (requests) => this.reserveCurrentBatch(requests),
      one: (request) => this.reserveCurrentOne(request),
      maxBatchSize: 500,
    });
  }

  async reserve(counter: CounterId, day: BusinessDay, shift: number, size: number): Promise<Block> {
    if (typeof counter !== "string") return (await this.reserveSeries(counter, day, shift, size)) ?? this.reserveCurrent(counter, day, size);
    return (await this.reservations.load({ tenantId: counter, day, shift, size })) ?? this.reserveCurrent(counter, day, size);
  }

  /**
   * One statement for a batch of reservations. Each (tenant, day, shift) is reserved in
   * `shift` only if no later shift of the day exists (null: the caller's view was stale);
   * requests for the same one share a single row update and split its range in order.
   * Rows are locked in key order, so two nodes' batches cannot deadlock.
   */
  private async reserveBatch(requests: readonly ReserveRequest[]): Promise<(Block | null)[]> {
    const rows = new Map<string, { tenantId: string; day: BusinessDay; shift: number; size: number; at: number[] }>();
    requests.forEach((r, i) => {
      const id = `${r.tenantId}/${r.day}/${r.shift}`;
      const row = rows.get(id);
      if (row) {
        row.size += r.size;
        row.at.push(i);
      } else rows.set(id, { tenantId: r.tenantId, day: r.day, shift: r.shift, size: r.size, at: [i] });
    });
    const want = [...rows.values()];
    const { rows: reserved } = await this.pool.query<{ tenantId: string; businessDay: string; shift: number; ceiling: number }>(
      `WITH req AS (
         SELECT * FROM unnest($1::uuid[], $2::date[], $3::int[], $4::int[]) AS r("tenantId", "businessDay", "shift", "size")
       )
       INSERT INTO "CounterCeiling" ("tenantId", "businessDay", "shift", "ceiling")
       SELECT req."tenantId", req."businessDay", req."shift", req."size" FROM req
       WHERE COALESCE((
         SELECT MAX(s."number") FROM "Shift" s WHERE s."tenantId" = req."tenantId" AND s."businessDay" = req."businessDay"
       ), 1) <= req."shift"
       ORDER BY 1, 2, 3
       ON CONFLICT ("tenantId", "businessDay", "shift")
         DO UPDATE SET "ceiling" = "CounterCeiling"."ceiling" + EXCLUDED."ceiling", "updatedAt" = now()
       RETURNING "tenantId", to_char("businessDay", 'YYYY-MM-DD') AS "businessDay", "shift", "ceiling"`,
      [want.map((w) => w.tenantId), want.map((w) => w.day), want.map((w) => w.shift), want.map((w) => w.size)],
    );
    const ceilings = new Map(reserved.map((r) => [`${r.tenantId}/${r.businessDay}/${r.shift}`, r.ceiling]));
    const blocks = new Array<Block | null>(requests.length).fill(null);
    for (const [id, w] of rows) {
      const ceiling = ceilings.get(id);
      if (ceiling === undefined) continue;
      let lo = ceiling - w.size;
      for (const i of w.at) {
        const size = requests[i]!.size;
        blocks[i] = { businessDay: w.day, shift: w.shift, lo, hi: lo + size };
        lo += size;
      }
    }
    return blocks;
  }

  reserveCurrent(counter: CounterId, day: BusinessDay, size: number): Promise<Block> {
    if (typeof counter !== "string") return this.reserveSeriesCurrent(counter, day, size);
    return this.currentReservations.load({ tenantId: counter, day, size });
  }

  /**
   * One statement for a batch of `reserveCurrent`s. The business day only moves forward: if
   * another node already numbers the next day (its clock is ahead of ours by less than a
   * day), follow it. The current shift is the latest one a manager started that day (1 when
   * none). Requests that land on the same (tenant, day, shift) share one row update, split
   * in request order; rows are locked in key order, as in `reserveBatch`.
   */
  private async reserveCurrentBatch(requests: readonly CurrentRequest[]): Promise<(Block | Error)[]> {
    const { rows } = await this.pool.query<{ i: number; businessDay: string; shift: number; lo: number }>(
      `WITH req AS (
         SELECT r."tenantId", r."day", r."size", r."i"::int AS "i"
         FROM unnest($1::uuid[], $2::date[], $3::int[]) WITH ORDINALITY AS r("tenantId", "day", "size", "i")
       ), d AS (
         SELECT req.*, GREATEST(req."day", COALESCE((
           SELECT MAX(c."businessDay") FROM "CounterCeiling" c
           WHERE c."tenantId" = req."tenantId" AND c."businessDay" <= req."day" + 1
         ), req."day")) AS "businessDay" FROM req
       ), target AS (
         SELECT d.*, COALESCE((
           SELECT MAX(s."number") FROM "Shift" s WHERE s."tenantId" = d."tenantId" AND s."businessDay" = d."businessDay"
         ), 1) AS "shift" FROM d
       ), up AS (
         INSERT INTO "CounterCeiling" ("tenantId", "businessDay", "shift", "ceiling")
         SELECT "tenantId", "businessDay", "shift", SUM("size") FROM target
         GROUP BY 1, 2, 3
         ORDER BY 1, 2, 3
         ON CONFLICT ("tenantId", "businessDay", "shift")
           DO UPDATE SET "ceiling" = "CounterCeiling"."ceiling" + EXCLUDED."ceiling", "updatedAt" = now()
         RETURNING "tenantId", "businessDay", "shift", "ceiling"
       )
       SELECT t."i", to_char(t."businessDay", 'YYYY-MM-DD') AS "businessDay", t."shift",
         (up."ceiling"
           - SUM(t."size") OVER (PARTITION BY t."tenantId", t."businessDay", t."shift")
           + SUM(t."size") OVER (PARTITION BY t."tenantId", t."businessDay", t."shift" ORDER BY t."i")
           - t."size")::int AS "lo"
       FROM target t JOIN up USING ("tenantId", "businessDay", "shift")`,
      [requests.map((r) => r.tenantId), requests.map((r) => r.day), requests.map((r) => r.size)],
    );
    const blocks: (Block | Error)[] = requests.map(() => new Error("reserveCurrent returned no row"));
    for (const row of rows) {
      const size = requests[row.i - 1]!.size;
      blocks[row.i - 1] = { businessDay: row.businessDay, shift: row.shift, lo: row.lo, hi: row.lo + size };
    }
    return blocks;
  }

  /** `reserveCurrent` alone in its turn (the fallback at a steady rate): the same rules in a single-row statement. */
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

  /**
   * A series' tickets (table "SeriesCeiling"), by the rules of `reserveBatch`: in `shift` unless
   * a later shift of the day exists (null). One statement per block, unbatched: a series'
   * counter reserves once per BLOCK_SIZE tickets, and per ticket only while Redis is down.
   */
  private async reserveSeries(c: SeriesCounter, day: BusinessDay, shift: number, size: number): Promise<Block | null> {
    const { rows } = await this.pool.query<{ ceiling: number }>(
      `INSERT INTO "SeriesCeiling" ("tenantId", "seriesId", "businessDay", "shift", "ceiling")
       SELECT $1::uuid, $2::uuid, $3::date, $4::int, $5::int
       WHERE COALESCE((SELECT MAX(s."number") FROM "Shift" s WHERE s."tenantId" = $1::uuid AND s."businessDay" = $3::date), 1) <= $4::int
       ON CONFLICT ("tenantId", "seriesId", "businessDay", "shift")
         DO UPDATE SET "ceiling" = "SeriesCeiling"."ceiling" + EXCLUDED."ceiling", "updatedAt" = now()
       RETURNING "ceiling"`,
      [c.tenantId, c.seriesId, day, shift, size],
    );
    const ceiling = rows[0]?.ceiling;
    return ceiling === undefined ? null : { businessDay: day, shift, lo: ceiling - size, hi: ceiling };
  }

  /** `reserveCurrentOne` for a series' tickets: the latest day (never behind the series' own) and its latest shift. */
  private async reserveSeriesCurrent(c: SeriesCounter, day: BusinessDay, size: number): Promise<Block> {
    const { rows } = await this.pool.query<{ businessDay: string; shift: number; ceiling: number }>(
      `WITH d AS (
         SELECT GREATEST($3::date, COALESCE((
           SELECT MAX("businessDay") FROM "SeriesCeiling"
           WHERE "tenantId" = $1::uuid AND "seriesId" = $2::uuid AND "businessDay" <= $3::date + 1
         ), $3::date)) AS day
       ), latest AS (
         SELECT d.day, COALESCE((
           SELECT MAX(s."number") FROM "Shift" s WHERE s."tenantId" = $1::uuid AND s."businessDay" = d.day
         ), 1) AS shift FROM d
       )
       INSERT INTO "SeriesCeiling" ("tenantId", "seriesId", "businessDay", "shift", "ceiling")
       SELECT $1::uuid, $2::uuid, latest.day, latest.shift, $4::int FROM latest
       ON CONFLICT ("tenantId", "seriesId", "businessDay", "shift")
         DO UPDATE SET "ceiling" = "SeriesCeiling"."ceiling" + $4::int, "updatedAt" = now()
       RETURNING to_char("businessDay", 'YYYY-MM-DD') AS "businessDay", "shift", "ceiling"`,
      [c.tenantId, c.seriesId, day, size],
    );
    const row = rows[0];
    if (!row) throw new Error("reserveCurrent returned no row");
    return { businessDay: row.businessDay, shift: row.shift, lo: row.ceiling - size, hi: row.ceiling };
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
