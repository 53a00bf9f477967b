/**
 * The promise of issue #3 as checks over what the clients saw (LoadRecords) and what
 * PostgreSQL holds (the Order table, read directly). Each check returns readable lines
 * and a list of violations; a test asserts `violations` is empty and prints the report.
 *
 *  - no two distinct orders hold the same (businessDay, shift, number) of the default series,
 *    nor the same (businessDay, shift, series, ticket) of another series (decision 0027:
 *    a series' numbers come round within a shift, its tickets do not), among 201 answers
 *    (numbersAnsweredTwice: from the answers alone, so an order the database lost still
 *    counts) and in PostgreSQL;
 *  - at least 99.5 % of orders answered 201 (after at most one retry with the same key);
 *  - every 201 order is stored, with the number the client was told (unless `lostAllowed`:
 *    a failover to an asynchronous standby loses the last commits; then they are counted); no stored order
 *    that no client saw, except for orders whose request failed on the client side
 *    (no HTTP answer for an attempt: the server may have stored it after the client gave
 *    up);
 *  - no two orders that were open at the same time share a displayed number, prefix and
 *    number (decision 0027: a number still open on the floor, of any shift, day or series,
 *    is never handed out again), from the stored stamps: open from createdAt until
 *    collected, cancelled or cleared;
 *  - an order of a series shows the number of its ticket (numberOfTicket), and a SERIES_FULL
 *    answer came only while every number of the series was open (each one at some moment
 *    while the request ran); such an answer stored nothing;
 *  - skipped numbers per shift ≤ 50 × faults injected (0 without a fault): a number missing
 *    from a shift (from 1 to its highest) counts unless it was *held*, skipped because an
 *    order of another shift or day showed it: an order holding that number, created before
 *    the shift stopped handing out numbers and not closed before the shift's first order was
 *    asked for (see `shiftStats`); in another series, skipped *tickets* per (day, shift,
 *    series), a ticket counting unless its number was held open when it was drawn;
 *  - latency is recorded and printed, never asserted.
 */
import pg from "pg";
import { MAX_SKIPPED_PER_FAULT } from "@/lib/core/numbering";
import { DEFAULT_SERIES, numberOfTicket, seriesSize, type Series } from "@/lib/core/series";
import type { LoadRecord } from "./load-runner";

export const MIN_ACCEPTANCE = 0.995;
/**
 * How far the load clients' clock (performance.timeOrigin + now()) and the database's
 * (createdAt) may disagree on one machine, in ms.
 */
const CLOCK_TOLERANCE_MS = 50;

export interface StoredOrder {
  id: string;
  businessDay: string;
  shift: number;
  number: number;
  /** The letters shown before the number ("" for none): numbers are told apart with it. */
  prefix?: string;
  /** The series it was numbered in (null or absent: the default), its name then, and its ticket in (day, shift, series). */
  seriesId?: string | null;
  seriesName?: string | null;
  ticket?: number | null;
  idempotencyKey: string | null;
  /** Epoch ms the database stamped the row (its own clock). */
  createdAt: number;
  /**
   * Epoch ms it left the floor: the earliest of collectedAt, cancelledAt, clearedAt; null while
   * open. An Undo (COLLECTED → READY) erases collectedAt: such an order reads as open since
   * its creation (the fault scenarios move no order).
   */
  closedAt: number | null;
  /** PLACED or READY and not cleared, now. */
  open: boolean;
}

/** Every order of `tenantId`, straight from the Order table. */
export async function loadStoredOrders(databaseUrl: string, tenantId: string): Promise<StoredOrder[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{
      id: string;
      day: string;
      shift: number;
      number: number;
      prefix: string;
      seriesId: string | null;
      seriesName: string | null;
      ticket: number | null;
      idempotencyKey: string | null;
      created: number;
      closed: number | null;
      open: boolean;
    }>(
      `SELECT id, to_char("businessDay", 'YYYY-MM-DD') AS day, shift, number, prefix, "seriesId", "seriesName", ticket, "idempotencyKey",
              (extract(epoch FROM "createdAt") * 1000)::float8 AS created,
              (extract(epoch FROM LEAST("collectedAt", "cancelledAt", "clearedAt")) * 1000)::float8 AS closed,
              (status IN ('PLACED', 'READY') AND "clearedAt" IS NULL) AS open
         FROM "Order" WHERE "tenantId" = $1`,
      [tenantId],
    );
    return rows.map((r) => ({
      id: r.id,
      businessDay: r.day,
      shift: r.shift,
      number: r.number,
      prefix: r.prefix,
      seriesId: r.seriesId,
      seriesName: r.seriesName,
      ticket: r.ticket,
      idempotencyKey: r.idempotencyKey,
      createdAt: Number(r.created),
      closedAt: r.closed === null ? null : Number(r.closed),
      open: r.open,
    }));
  } finally {
    await client.end();
  }
}

/** A series as the checks need it: what its tickets show. */
export type SeriesDef = Pick<Series, "id" | "name" | "prefix" | "first" | "last">;

/** The series of `tenantId` (NumberSeries, retired ones too: their orders remain). */
export async function loadSeries(databaseUrl: string, tenantId: string): Promise<SeriesDef[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<SeriesDef>(`SELECT id, name, prefix, first, last FROM "NumberSeries" WHERE "tenantId" = $1`, [tenantId]);
    return rows;
  } finally {
    await client.end();
  }
}

/**
 * How far the counters' ceilings jumped after a database failover (decision 0028), per
 * "day/shift" of the default series and "day/shift/series name" of the others: the app
 * audits each jump, and those numbers are skipped on purpose.
 */
export async function loadJumps(databaseUrl: string, tenantId: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ details: { counters?: { series: string | null; businessDay: string; shift: number; from: number; to: number }[] } }>(
      `SELECT details FROM "AuditEntry" WHERE "tenantId" = $1 AND action = 'counter.jumpedAfterFailover'`,
      [tenantId],
    );
    const jumps = new Map<string, number>();
    for (const c of rows.flatMap((r) => r.details.counters ?? [])) {
      const key = jumpKey(c.businessDay, c.shift, c.series);
      jumps.set(key, (jumps.get(key) ?? 0) + (c.to - c.from));
    }
    return jumps;
  } finally {
    await client.end();
  }
}

const jumpKey = (day: string, shift: number, series: string | null | undefined) => `${day}/${shift}${series ? `/${series}` : ""}`;

/**
 * What the database keeps unique within a shift: the number in the default series, the
 * ticket in another (its numbers come round).
 */
export function countedAs(o: {
  businessDay?: string;
  shift?: number;
  number?: number;
  seriesId?: string | null;
  seriesName?: string | null;
  ticket?: number | null;
}): string {
  const slot = `${o.businessDay}/shift ${o.shift}`;
  return o.seriesId ? `${slot}/series ${o.seriesName ?? o.seriesId}/ticket ${o.ticket}` : `${slot}/#${o.number}`;
}

export interface ShiftStats {
  businessDay: string;
  shift: number;
  /** The series' name ("Default" for the default series). */
  series: string;
  /** What the counter of this series counts: numbers (the default series) or tickets. */
  unit: "number" | "ticket";
  count: number;
  /** Lowest and highest number (the default series) or ticket. */
  min: number;
  max: number;
  /** Numbers (tickets) from the shift's first to max that no order of the shift has and none held: numbers spent. */
  skipped: number;
  /** Those numbers as ranges, e.g. "12, 265–281". */
  missing: string;
  /** Numbers from the first to max the shift has not because an order of another shift or day held them open. */
  held: number;
  /** Those numbers as ranges. */
  heldRanges: string;
}

/** [1,2,3,7,9,10] → "1–3, 7, 9–10". */
export function ranges(sorted: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(i === j ? `${sorted[i]}` : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}

export interface ShiftStatsOptions {
  /** Epoch ms (the machine's clock) the request that made an order began, when known. */
  requestStart?: (o: StoredOrder) => number | undefined;
  /** The shift's first number (default 1). */
  firstNumber?: (businessDay: string, shift: number) => number;
  /** How far two clocks (the database's, the app's, the load clients') may disagree, in ms. */
  toleranceMs?: number;
  /** The tenant's series (a ticket's number): without its series, a skipped ticket counts as spent. */
  series?: readonly SeriesDef[];
  /**
   * Requests that failed after they may have drawn a ticket of a series (503, SERIES_FULL…),
   * as [start, end] epoch ms: a ticket such a request skipped is held if its number was open meanwhile.
   */
  failedWindows?: (seriesName: string) => readonly [number, number][];
}

const slotOf = (o: { businessDay: string; shift: number }) => `${o.businessDay}/${o.shift}`;
/** A counter: (day, shift) of the default series, or (day, shift, series). */
const groupOf = (o: StoredOrder) => `${slotOf(o)}/${o.seriesId ?? ""}`;
const displayOf = (o: { prefix?: string; number: number }) => `${o.prefix ?? ""}#${o.number}`;

/**
 * Numbers per shift, and the gaps among them. A gap is *held* when an order of another shift
 * or day showing that number was open while this shift handed out numbers (the order then
 * took the next number, decision 0027), bounded by the records:
 *  - the holder was created before the shift stopped handing out numbers: before the last
 *    order begun by the time the shift's last order was stored was itself stored (an order
 *    that drew a number of this shift, met the holder and took a number of the next shift
 *    or day is stored after the holder);
 *  - the holder was not closed before the first request that ended in this shift began.
 * Any other gap is a number spent (a fault's cost, or a bug).
 */
export function shiftStats(stored: StoredOrder[], opts: ShiftStatsOptions = {}): ShiftStats[] {
  const tol = opts.toleranceMs ?? 2;
  const began = (o: StoredOrder) => Math.min(opts.requestStart?.(o) ?? o.createdAt, o.createdAt);
  const by = new Map<string, StoredOrder[]>();
  for (const o of stored) by.set(groupOf(o), [...(by.get(groupOf(o)) ?? []), o]);
  const byNumber = new Map<string, StoredOrder[]>();
  for (const o of stored) byNumber.set(displayOf(o), [...(byNumber.get(displayOf(o)) ?? []), o]);
  const byStart = [...stored].sort((a, b) => began(a) - began(b));
  return [...by.values()]
    .map((orders) =>
      orders[0]!.seriesId ? seriesTicketStats(orders, byNumber, began, tol, opts) : defaultSeriesStats(orders, byNumber, byStart, began, tol, opts),
    )
    .sort(
      (a, b) =>
        a.businessDay.localeCompare(b.businessDay) ||
        a.shift - b.shift ||
        Number(a.unit === "ticket") - Number(b.unit === "ticket") ||
        a.series.localeCompare(b.series),
    );
}

function defaultSeriesStats(
  orders: StoredOrder[],
  byNumber: Map<string, StoredOrder[]>,
  byStart: StoredOrder[],
  began: (o: StoredOrder) => number,
  tol: number,
  opts: ShiftStatsOptions,
): ShiftStats {
  const { businessDay, shift } = orders[0]!;
  const prefix = orders[0]!.prefix ?? "";
  const nums = [...new Set(orders.map((o) => o.number))].sort((a, b) => a - b);
  const have = new Set(nums);
  const max = nums[nums.length - 1] ?? 0;
  const first = opts.firstNumber?.(businessDay, shift) ?? 1;
  const from = Math.min(...orders.map(began));
  const lastStored = Math.max(...orders.map((o) => o.createdAt));
  let until = lastStored;
  for (const o of byStart) {
    if (began(o) > lastStored + tol) break;
    until = Math.max(until, o.createdAt);
  }
  const held: number[] = [];
  const gaps: number[] = [];
  for (let n = first; n <= max; n++) {
    if (have.has(n)) continue;
    const holder = (byNumber.get(displayOf({ prefix, number: n })) ?? []).some(
      (x) => groupOf(x) !== groupOf(orders[0]!) && x.createdAt <= until + tol && (x.closedAt === null || x.closedAt >= from - tol),
    );
    (holder ? held : gaps).push(n);
  }
  return {
    businessDay,
    shift,
    series: DEFAULT_SERIES.name,
    unit: "number",
    count: orders.length,
    min: nums[0] ?? 0,
    max,
    skipped: gaps.length,
    missing: ranges(gaps),
    held: held.length,
    heldRanges: ranges(held),
  };
}

/**
 * Tickets of one (day, shift, series) and the gaps among them. A missing ticket was skipped,
 * not spent, when its number was held open as it was drawn: by an order of an earlier lap,
 * shift, day or series (never one of a later lap of this shift) that was open at some moment
 * while a request that may have drawn the ticket ran — one that stored a later ticket of
 * this shift (from its start until its order was stored), or one that failed.
 */
function seriesTicketStats(
  orders: StoredOrder[],
  byNumber: Map<string, StoredOrder[]>,
  began: (o: StoredOrder) => number,
  tol: number,
  opts: ShiftStatsOptions,
): ShiftStats {
  const { businessDay, shift, seriesId } = orders[0]!;
  const def = opts.series?.find((s) => s.id === seriesId);
  const name = def?.name ?? orders[0]!.seriesName ?? seriesId!;
  const tickets = [...new Set(orders.map((o) => o.ticket!))].sort((a, b) => a - b);
  const have = new Set(tickets);
  const max = tickets[tickets.length - 1] ?? 0;
  const failed = opts.failedWindows?.(name) ?? [];
  const held: number[] = [];
  const gaps: number[] = [];
  for (let t = 1; t <= max; t++) {
    if (have.has(t)) continue;
    if (!def) {
      gaps.push(t);
      continue;
    }
    // Requests that may have drawn ticket t: their windows.
    const windows: (readonly [number, number])[] = [...failed, ...orders.filter((o) => o.ticket! > t).map((o) => [began(o), o.createdAt] as const)];
    const earlier = (x: StoredOrder) => !(x.seriesId === seriesId && x.businessDay === businessDay && x.shift === shift && x.ticket! > t);
    const holders = (byNumber.get(displayOf({ prefix: def.prefix, number: numberOfTicket(def, t) })) ?? []).filter(earlier);
    const holder = holders.some((x) => windows.some(([a, b]) => x.createdAt <= b + tol && (x.closedAt === null || x.closedAt >= a - tol)));
    (holder ? held : gaps).push(t);
  }
  return {
    businessDay,
    shift,
    series: name,
    unit: "ticket",
    count: orders.length,
    min: tickets[0] ?? 0,
    max,
    skipped: gaps.length,
    missing: ranges(gaps),
    held: held.length,
    heldRanges: ranges(held),
  };
}

const describeStored = (o: StoredOrder) =>
  `${o.businessDay}/shift ${o.shift}/#${o.prefix ?? ""}${o.number}${o.seriesId ? ` (series ${o.seriesName ?? o.seriesId}, ticket ${o.ticket})` : ""} (${o.id}, open ${new Date(o.createdAt).toISOString()}..${o.closedAt === null ? "" : new Date(o.closedAt).toISOString()})`;

/**
 * How far the stamps of two orders may overlap without the two having been open at once: an
 * order's `createdAt` is its INSERT statement's start (PostgreSQL's now()), and a batched
 * insert can wait on a concurrent collect of the same number, stamped before it committed.
 * The index makes a real twin impossible; a lasting one (a lost index) still shows here and
 * in OPEN TWICE NOW.
 */
export const STAMP_SLACK_MS = 1_000;

/**
 * Pairs of orders with one number that were open at the same time (open from createdAt until
 * closedAt): what decision 0027 promises never happens, across shifts and days.
 */
export function openAtOnce(stored: StoredOrder[]): string[] {
  const out: string[] = [];
  const byNumber = new Map<string, StoredOrder[]>();
  for (const o of stored) byNumber.set(displayOf(o), [...(byNumber.get(displayOf(o)) ?? []), o]);
  for (const orders of byNumber.values()) {
    const sorted = [...orders].sort((a, b) => a.createdAt - b.createdAt);
    let latest: StoredOrder | undefined; // the order, among those created so far, that stays open longest
    for (const o of sorted) {
      const end = (x: StoredOrder) => x.closedAt ?? Infinity;
      if (latest && end(latest) > o.createdAt + STAMP_SLACK_MS) out.push(`${describeStored(latest)} and ${describeStored(o)}`);
      if (!latest || end(o) > end(latest)) latest = o;
    }
  }
  return out;
}

/** Numbers two orders open now share (whatever their stamps say). */
export function openTwiceNow(stored: StoredOrder[]): string[] {
  const open = new Map<string, StoredOrder[]>();
  for (const o of stored.filter((x) => x.open)) open.set(displayOf(o), [...(open.get(displayOf(o)) ?? []), o]);
  return [...open].filter(([, os]) => os.length > 1).map(([k, os]) => `${k} open ${os.length} times: ${os.map(describeStored).join("; ")}`);
}

/** A number two different orders were answered with (201), and those answers. */
export interface AnsweredTwice {
  /** `<businessDay>/shift <shift>/#<prefix><number>`. */
  number: string;
  records: LoadRecord[];
}

/**
 * Numbers answered to two customers, judged from the clients' 201 answers alone (an order the
 * database lost afterwards still left a customer holding its number): 201 answers of different
 * orders (ids; each has its own Idempotency-Key) with one (businessDay, shift, prefix+number).
 * Answers for which `comesRound` is true are left out: a series whose numbers come round shows
 * one number twice in a shift by design (decision 0027), its tickets are checked in checkRun.
 */
export function numbersAnsweredTwice(records: readonly LoadRecord[], comesRound: (r: LoadRecord) => boolean = () => false): AnsweredTwice[] {
  const byNumber = new Map<string, LoadRecord[]>();
  for (const r of records) {
    if (r.status !== 201 || r.id === undefined || comesRound(r)) continue;
    const number = `${r.businessDay}/shift ${r.shift}/#${r.prefix ?? ""}${r.number}`;
    byNumber.set(number, [...(byNumber.get(number) ?? []), r]);
  }
  return [...byNumber].filter(([, rs]) => new Set(rs.map((r) => r.id)).size > 1).map(([number, rs]) => ({ number, records: rs }));
}

export interface LatencyStats {
  /** Whole order (both attempts and the pause between them). */
  p50: number;
  p99: number;
  max: number;
  /** Slowest single HTTP attempt. */
  maxAttempt: number;
  /** Slowest order that ended in 201. */
  max201: number;
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function latencyStats(records: LoadRecord[]): LatencyStats {
  const total = records.map((r) => r.end - r.start).sort((a, b) => a - b);
  const attempts = records.flatMap((r) => r.attempts.map((a) => a.end - a.start));
  const ok = records.filter((r) => r.status === 201).map((r) => r.end - r.start);
  const round = (n: number) => Math.round(n);
  return {
    p50: round(pct(total, 50)),
    p99: round(pct(total, 99)),
    max: round(total[total.length - 1] ?? 0),
    maxAttempt: round(Math.max(0, ...attempts)),
    max201: round(Math.max(0, ...ok)),
  };
}

export interface CheckInput {
  scenario: string;
  records: LoadRecord[];
  stored: StoredOrder[];
  /** Faults injected in the scenario: the skip budget per shift is 50 × faults. */
  faults: number;
  minAcceptance?: number;
  /** Fault timeline (epoch ms), printed relative to the first request. */
  timeline?: { at: number; what: string }[];
  /** Extra lines (health samples, counter state…) for the report. */
  notes?: string[];
  /** The tenant's series other than the default (loadSeries): what their tickets show. */
  series?: readonly SeriesDef[];
  /**
   * Orders answered 201 and then missing from PostgreSQL are counted (`lost`) and listed, not
   * violations: what a failover to an asynchronous standby costs by definition.
   */
  lostAllowed?: boolean;
  /** Numbers skipped on purpose by a counter's jump after a database failover (loadJumps): added to that shift's budget. */
  jumps?: ReadonlyMap<string, number>;
}

/** A refusal because every number of the series was open (decision 0027): nothing stored. */
export const isSeriesFull = (r: LoadRecord) => r.status === 409 && r.attempts[r.attempts.length - 1]?.code === "SERIES_FULL";

export interface FaultReport {
  scenario: string;
  violations: string[];
  lines: string[];
  shifts: ShiftStats[];
  latency: LatencyStats;
  acceptance: number;
  duplicates: number;
  /** Numbers answered to two orders (numbersAnsweredTwice, default series). */
  answeredTwice: AnsweredTwice[];
  /** Orders answered 201 that PostgreSQL does not hold. */
  lost: number;
  /** What PostgreSQL held, as checked. */
  stored: StoredOrder[];
  text: string;
}

const describeRecord = (r: LoadRecord, t0: number) =>
  `${r.client}/w${r.worker}#${r.seq} node${r.node} key=${r.key} +${Math.round(r.start - t0)}..+${Math.round(r.end - t0)} ms status=${r.status} id=${r.id ?? "-"} ` +
  `attempts=[${r.attempts.map((a) => a.status ?? a.error).join(", ")}]`;

export function checkRun(input: CheckInput): FaultReport {
  const { scenario, records, stored, faults } = input;
  const minAcceptance = input.minAcceptance ?? MIN_ACCEPTANCE;
  const violations: string[] = [];
  const lines: string[] = [];
  const t0 = Math.min(...records.map((r) => r.start), ...(input.timeline ?? []).map((e) => e.at));
  const byKey = new Map(records.map((r) => [r.key, r]));
  if (byKey.size !== records.length) violations.push(`clients reused an Idempotency-Key (${records.length} records, ${byKey.size} keys): harness bug`);

  // 1. Duplicates among 201 answers: two distinct orders with one (day, shift, number) of the
  // default series, or one (day, shift, series, ticket) of another (the ticket as stored: a
  // client is told the number only, which comes round within a shift).
  const storedById = new Map(stored.map((o) => [o.id, o]));
  const ok = records.filter((r) => r.status === 201);
  const inSeries = (r: LoadRecord) => {
    const s = storedById.get(r.id!);
    return s ? Boolean(s.seriesId) : r.series !== undefined || Boolean(r.prefix);
  };
  const answeredTwice = numbersAnsweredTwice(records, inSeries);
  const bySlot = new Map<string, LoadRecord[]>(answeredTwice.map((a) => [a.number, a.records]));
  for (const r of ok) {
    const s = storedById.get(r.id!);
    if (!inSeries(r) || !s) continue; // its ticket is unknown when not stored; an answered order not stored is caught in 3.
    bySlot.set(countedAs(s), [...(bySlot.get(countedAs(s)) ?? []), r]);
  }
  let duplicates = 0;
  for (const [slot, rs] of bySlot) {
    const ids = new Set(rs.map((r) => r.id));
    if (ids.size > 1) {
      duplicates++;
      if (duplicates <= 10) violations.push(`DUPLICATE ${slot} given to ${ids.size} orders:\n    ${rs.map((r) => describeRecord(r, t0)).join("\n    ")}`);
    }
  }
  if (duplicates > 10) violations.push(`… ${duplicates} duplicated numbers in all`);
  const keysById = new Map<string, string[]>();
  for (const r of ok) keysById.set(r.id!, [...(keysById.get(r.id!) ?? []), r.key]);
  for (const [id, keys] of keysById)
    if (keys.length > 1) violations.push(`order ${id} was returned for ${keys.length} different Idempotency-Keys: ${keys.join(", ")}`);

  // 2. Acceptance. A SERIES_FULL answer is a right answer when the series was full (checked
  // in 4b): it counts neither way.
  const full = records.filter(isSeriesFull);
  const asked = records.length - full.length;
  const acceptance = asked ? ok.length / asked : 0;
  const finals = new Map<string, number>();
  for (const r of records) {
    const last = r.attempts[r.attempts.length - 1]!;
    const k = r.status === 201 ? "201" : r.status === null ? `no answer (${last.error})` : `${r.status} ${last.code ?? ""}`.trim();
    finals.set(k, (finals.get(k) ?? 0) + 1);
  }
  const retried = records.filter((r) => r.attempts.length > 1).length;
  const firstFailures = new Map<string, number>();
  for (const r of records) {
    const a = r.attempts[0]!;
    if (a.status === 201) continue;
    const k = a.status === null ? `no answer (${a.error})` : `${a.status} ${a.code ?? ""}`.trim();
    firstFailures.set(k, (firstFailures.get(k) ?? 0) + 1);
  }
  lines.push(
    `orders: ${records.length} from ${new Set(records.filter((r) => r.client !== "probe").map((r) => r.client)).size} client processes${records.some((r) => r.client === "probe") ? " + probes" : ""}; 201: ${ok.length} (${(acceptance * 100).toFixed(2)} %); retried: ${retried}; replayed on retry: ${ok.filter((r) => r.replayed).length}`,
  );
  lines.push(`final outcomes: ${[...finals].map(([k, n]) => `${k} ×${n}`).join(", ")}`);
  if (firstFailures.size) lines.push(`first-attempt failures: ${[...firstFailures].map(([k, n]) => `${k} ×${n}`).join(", ")}`);
  if (records.length === 0) violations.push("no requests were recorded");
  if (acceptance < minAcceptance) {
    const failed = records.filter((r) => r.status !== 201 && !isSeriesFull(r));
    violations.push(
      `ACCEPTANCE ${(acceptance * 100).toFixed(2)} % < ${(minAcceptance * 100).toFixed(1)} %: ${failed.length} of ${asked} orders not taken (SERIES_FULL aside); e.g.\n    ${failed
        .slice(0, 5)
        .map((r) => describeRecord(r, t0))
        .join("\n    ")}`,
    );
  }

  // 3. Stored orders vs. what clients were told.
  let missingFromDb = 0;
  let mismatched = 0;
  const lost: LoadRecord[] = [];
  for (const r of ok) {
    const s = storedById.get(r.id!);
    if (!s) {
      lost.push(r);
      if (++missingFromDb <= 5 && !input.lostAllowed) violations.push(`201 order not stored in PostgreSQL: ${describeRecord(r, t0)}`);
    } else if (
      s.businessDay !== r.businessDay ||
      s.shift !== r.shift ||
      s.number !== r.number ||
      (r.prefix !== undefined && r.prefix !== (s.prefix ?? "")) ||
      (r.series !== undefined && r.series.toLowerCase() !== (s.seriesName ?? "").toLowerCase())
    ) {
      if (++mismatched <= 5)
        violations.push(
          `order ${r.id} stored as ${s.businessDay}/shift ${s.shift}/${displayOf(s)} (series ${s.seriesName ?? "default"}) but the client was told ${r.businessDay}/shift ${r.shift}/${displayOf({ prefix: r.prefix, number: r.number! })}${r.series ? ` having asked for series ${r.series}` : ""}`,
        );
    }
  }
  if (missingFromDb > 5 && !input.lostAllowed) violations.push(`… ${missingFromDb} answered-201 orders missing from PostgreSQL in all`);
  if (mismatched > 5) violations.push(`… ${mismatched} orders stored with another number than answered, in all`);
  const okIds = new Set(ok.map((r) => r.id!));
  let unseenAllowed = 0;
  const unseenBad: string[] = [];
  for (const s of stored) {
    if (okIds.has(s.id)) continue;
    const r = s.idempotencyKey ? byKey.get(s.idempotencyKey) : undefined;
    if (!r) unseenBad.push(`stored order ${s.id} (#${s.number}, shift ${s.shift}) with Idempotency-Key ${s.idempotencyKey} that no client sent`);
    else if (r.status === 201)
      unseenBad.push(`stored order ${s.id} (#${s.number}) for key ${r.key}, but that client got order ${r.id}: two orders for one key`);
    else if (r.attempts.some((a) => a.status === null)) unseenAllowed++;
    else unseenBad.push(`stored order ${s.id} (#${s.number}, shift ${s.shift}) although its client was told ${r.status} every time: ${describeRecord(r, t0)}`);
  }
  for (const v of unseenBad.slice(0, 10)) violations.push(v);
  if (unseenBad.length > 10) violations.push(`… ${unseenBad.length} stored orders that no client got, in all`);
  lines.push(
    `stored in PostgreSQL: ${stored.length} (201 answered: ${okIds.size}, stored after a client-side failure: ${unseenAllowed}, unexplained: ${unseenBad.length}, answered but missing: ${missingFromDb})`,
  );
  lines.push(
    `answered 201, then missing from PostgreSQL (lost): ${lost.length}${input.lostAllowed ? " (allowed here)" : ""}${
      lost.length
        ? `, e.g. ${lost
            .slice(0, 3)
            .map((r) => describeRecord(r, t0))
            .join("; ")}`
        : ""
    }`,
  );
  lines.push(
    `numbers answered to two orders: ${answeredTwice.length}${
      answeredTwice.length
        ? ` (${answeredTwice
            .slice(0, 8)
            .map((a) => a.number)
            .join(", ")}${answeredTwice.length > 8 ? ", …" : ""})`
        : ""
    }`,
  );
  const expected = okIds.size - missingFromDb + unseenAllowed + unseenBad.length;
  if (stored.length !== expected) violations.push(`stored count ${stored.length} ≠ ${expected} accounted for: harness bug?`);

  const storedSlots = new Map<string, string[]>();
  for (const s of stored) storedSlots.set(countedAs(s), [...(storedSlots.get(countedAs(s)) ?? []), s.id]);
  const storedDupes = [...storedSlots].filter(([, ids]) => ids.length > 1);
  for (const [slot, ids] of storedDupes.slice(0, 5)) violations.push(`DUPLICATE in PostgreSQL: ${slot} stored ${ids.length} times (${ids.join(", ")})`);

  // 4. No number open twice at once, across shifts, days and series (decision 0027).
  const byDisplay = new Map<string, StoredOrder[]>();
  for (const o of stored) byDisplay.set(displayOf(o), [...(byDisplay.get(displayOf(o)) ?? []), o]);
  const twins = openAtOnce(stored);
  for (const t of twins.slice(0, 5)) violations.push(`OPEN TWICE: one number on two orders open at the same time: ${t}`);
  if (twins.length > 5) violations.push(`… ${twins.length} pairs of orders open at once with one number, in all`);
  for (const t of openTwiceNow(stored).slice(0, 5)) violations.push(`OPEN TWICE NOW: ${t}`);

  // 4b. Series (decision 0027): each order shows its ticket's number; SERIES_FULL only when full.
  const defs = input.series ?? [];
  const wrong: string[] = [];
  for (const o of stored) {
    if (!o.seriesId) continue;
    const def = defs.find((d) => d.id === o.seriesId);
    if (!def) continue;
    const expected = numberOfTicket(def, o.ticket!);
    if (o.number !== expected || (o.prefix ?? "") !== def.prefix) wrong.push(`${describeStored(o)} should show ${def.prefix}${expected}`);
  }
  for (const w of wrong.slice(0, 5)) violations.push(`SERIES NUMBER: ${w}`);
  if (wrong.length > 5) violations.push(`… ${wrong.length} orders of a series showing another number than their ticket's, in all`);
  const fullWhileFree: string[] = [];
  for (const r of full) {
    const def = defs.find((d) => d.name.toLowerCase() === (r.series ?? "").toLowerCase());
    if (!def || def.last === null) {
      fullWhileFree.push(
        `${describeRecord(r, t0)}: SERIES_FULL for series ${r.series ?? "(default)"}, which ${def ? "has no end" : "is not a series of the tenant"}`,
      );
      continue;
    }
    const free: number[] = [];
    for (let n = def.first; n <= def.last; n++) {
      const held = (byDisplay.get(displayOf({ prefix: def.prefix, number: n })) ?? []).some(
        (x) => x.createdAt <= r.end + CLOCK_TOLERANCE_MS && (x.closedAt === null || x.closedAt >= r.start - CLOCK_TOLERANCE_MS),
      );
      if (!held) free.push(n);
    }
    if (free.length) fullWhileFree.push(`${describeRecord(r, t0)}: ${def.prefix}${ranges(free)} free the whole time`);
  }
  for (const f of fullWhileFree.slice(0, 5)) violations.push(`SERIES_FULL WHILE FREE: ${f}`);
  if (fullWhileFree.length > 5) violations.push(`… ${fullWhileFree.length} SERIES_FULL answers while a number was free, in all`);
  if (defs.length || full.length) {
    const seriesOrders = stored.filter((o) => o.seriesId);
    lines.push(
      `series: ${defs.map((d) => `${d.name} ${d.prefix}${d.first}–${d.prefix}${d.last ?? "∞"} (${seriesSize(d)} numbers)`).join(", ") || "-"}; ${seriesOrders.length} orders stored in them, ${seriesOrders.filter((o) => o.open).length} still open; SERIES_FULL answers: ${full.length}`,
    );
  }

  // 5. Skipped numbers per shift (numbers held open by another shift's or day's order are not spent).
  const short = (r: string) => (r.length > 300 ? `${r.slice(0, 300)}…` : r);
  // A lost order's number was handed out, not skipped: it counts as a number of its shift.
  const answeredOnly: StoredOrder[] = lost
    .filter((r) => !inSeries(r))
    .map((r) => ({
      id: r.id!,
      businessDay: r.businessDay!,
      shift: r.shift!,
      number: r.number!,
      prefix: r.prefix ?? "",
      idempotencyKey: r.key,
      createdAt: r.end,
      closedAt: null,
      open: true,
    }));
  const shifts = shiftStats([...stored, ...answeredOnly], {
    requestStart: (o) => (o.idempotencyKey ? byKey.get(o.idempotencyKey)?.start : undefined),
    toleranceMs: CLOCK_TOLERANCE_MS,
    series: defs,
    failedWindows: (name) => records.filter((r) => r.status !== 201 && r.series?.toLowerCase() === name.toLowerCase()).map((r) => [r.start, r.end] as const),
  });
  const faultBudget = MAX_SKIPPED_PER_FAULT * faults;
  for (const s of shifts) {
    const jumped = input.jumps?.get(jumpKey(s.businessDay, s.shift, s.unit === "ticket" ? s.series : null)) ?? 0;
    const budget = faultBudget + jumped;
    lines.push(
      `shift ${s.businessDay}/${s.shift}${s.unit === "ticket" ? `, series ${s.series}` : ""}: ${s.count} orders, ${s.unit}s ${s.min}..${s.max}, skipped ${s.skipped} (budget ${budget} = ${MAX_SKIPPED_PER_FAULT} × ${faults} fault${faults === 1 ? "" : "s"}${jumped ? ` + ${jumped} jumped after the database failover` : ""})` +
        (s.missing ? `; missing ${short(s.missing)}` : "") +
        (s.held
          ? s.unit === "ticket"
            ? `; tickets whose number was held open (skipped, not spent): ${s.held} (${short(s.heldRanges)})`
            : `; held open by another shift's or day's order: ${s.held} (${short(s.heldRanges)})`
          : ""),
    );
    if (s.skipped > budget)
      violations.push(
        `SKIPPED ${s.skipped} ${s.unit}s in ${s.businessDay}/shift ${s.shift}${s.unit === "ticket" ? ` of series ${s.series}` : ""} > budget ${budget} (${faults} fault${faults === 1 ? "" : "s"} × ${MAX_SKIPPED_PER_FAULT}${jumped ? ` + ${jumped} jumped` : ""})`,
      );
  }

  // 6. Latency: printed only.
  const latency = latencyStats(records);
  lines.push(
    `latency (ms): p50 ${latency.p50}, p99 ${latency.p99}, max ${latency.max} (max single attempt ${latency.maxAttempt}, slowest 201 ${latency.max201})`,
  );

  const nodes = [...new Set(records.map((r) => r.node))].sort();
  if (nodes.length > 1) {
    for (const n of nodes) {
      const rs = records.filter((r) => r.node === n);
      lines.push(`node ${n}: ${rs.length} orders, 201: ${rs.filter((r) => r.status === 201).length}, max latency ${latencyStats(rs).max} ms`);
    }
  }
  if (input.timeline?.length) {
    lines.push(
      `timeline (ms from first request): ${[...input.timeline]
        .sort((a, b) => a.at - b.at)
        .map((e) => `+${Math.round(e.at - t0)} ${e.what}`)
        .join("; ")}`,
    );
  }
  for (const n of input.notes ?? []) lines.push(n);

  const text = [
    `── ${scenario}: ${violations.length ? `${violations.length} VIOLATION(S)` : "ok"}`,
    ...lines.map((l) => `  ${l}`),
    ...violations.map((v) => `  ✗ ${v}`),
  ].join("\n");
  return { scenario, violations, lines, shifts, latency, acceptance, duplicates, answeredTwice, lost: lost.length, stored, text };
}
