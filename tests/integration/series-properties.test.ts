/**
 * Number series against a model (issue #21, decision 0027), on real Redis and PostgreSQL:
 * fast-check draws sequences of orders (naming a series, through a channel's series, or the
 * default), kitchen moves (ready, collect, cancel), new shifts that keep or clear the floor,
 * changes to a series' range and prefix, and laps that take a series all the way round. A
 * plain model of the floor says what each step must do; after every step:
 *  - no two open orders of the restaurant show the same prefix and number, and the open
 *    orders are the model's;
 *  - an order refused with SERIES_FULL stored nothing, and came only when every number of
 *    its series' range was open (with its prefix, whatever series holds it); with a free
 *    number the order got one, in its range, with its series' prefix;
 *  - where the model knows the series' last number this shift, the order got the first number
 *    after it (round again after last) that no open order shows: a new shift starts every
 *    series at its first number, skipping open ones.
 * fast-check prints the seed and the shrunk sequence of a failure.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import fc from "fast-check";
import { createCoreHarness } from "../support/core-harness";
import { testKeyPrefix } from "../support/app-server";
import { toTenant } from "@/lib/adapters/postgres/rows.server";
import { AppError } from "@/lib/core/errors";
import type { Order } from "@/lib/core/orders";
import type { Channel, Series } from "@/lib/core/series";
import type { Tenant } from "@/lib/core/tenants";

const databaseUrl = inject("databaseUrl");
const redisUrl = inject("redisUrl");

type Status = "PLACED" | "READY" | "COLLECTED" | "CANCELLED";

interface ModelOrder {
  id: string;
  prefix: string;
  number: number;
  seriesId: string | null;
  status: Status;
  cleared: boolean;
}

interface Model {
  /** The restaurant's series, the default first (as the tenant carries them). */
  series: Series[];
  orders: ModelOrder[];
  shift: number;
  /**
   * Per series, the number its last ticket of this shift showed: absent before its first
   * ticket of the shift (the next shows its first number), null once unknown (after a
   * SERIES_FULL, which may have drawn a ticket, or a change of its range).
   */
  last: Map<string, number | null>;
}

interface Real {
  h: ReturnType<typeof createCoreHarness>;
  tenant: Tenant;
}

const isOpen = (o: ModelOrder) => (o.status === "PLACED" || o.status === "READY") && !o.cleared;
const openNumbers = (m: Model, prefix: string) => new Set(m.orders.filter((o) => isOpen(o) && o.prefix === prefix).map((o) => o.number));
const display = (o: { prefix: string; number: number }) => `${o.prefix}${o.number}`;

/** The numbers of a finite series' range, in the order its tickets show them from `from`. */
function lapFrom(s: Series, from: number): number[] {
  const size = s.last! - s.first + 1;
  return Array.from({ length: size }, (_, i) => s.first + ((from - s.first + i) % size));
}

/** What the model expects of an order in series `s`: refused, or a number (exact when known). */
function expectation(m: Model, s: Series): { full: true } | { full: false; exactly: number | null } {
  const open = openNumbers(m, s.prefix);
  const last = m.last.get(s.id);
  if (s.last !== null) {
    const free = lapFrom(s, s.first).filter((n) => !open.has(n));
    if (free.length === 0) return { full: true };
    if (last === null) return { full: false, exactly: null };
    const from = last === undefined ? s.first : last + 1 > s.last ? s.first : last + 1;
    return { full: false, exactly: lapFrom(s, from).find((n) => !open.has(n))! };
  }
  if (last === null) return { full: false, exactly: null };
  let n = last === undefined ? s.first : last + 1;
  while (open.has(n)) n++;
  return { full: false, exactly: n };
}

/** The number the next order of the default series gets, by the model: the first free one from its last (its first at a shift's start). */
function nextDefault(m: Model): number | null {
  const want = expectation(m, m.series[0]!);
  return want.full ? null : want.exactly;
}

/** After every step: the database's open orders are the model's, and no two show one number. */
async function invariant(m: Model, r: Real): Promise<void> {
  const rows = await r.h.db.order.findMany({
    where: { tenantId: r.tenant.id, status: { in: ["PLACED", "READY"] }, clearedAt: null },
    select: { id: true, prefix: true, number: true },
  });
  const shown = rows.map(display).sort();
  expect(new Set(shown).size, `open orders sharing a number: ${shown.join(", ")}`).toBe(shown.length);
  expect(new Set(rows.map((o) => o.id))).toEqual(new Set(m.orders.filter(isOpen).map((o) => o.id)));
  expect(await r.h.db.order.count({ where: { tenantId: r.tenant.id } })).toBe(m.orders.length);
}

/** How an order says which series it wants. */
type Via = { by: "name"; name: string } | { by: "channel"; channel: Channel } | { by: "none" };

const SERIES_NAMES = ["Alpha", "Bravo", "Charlie"] as const;

async function placeAndCheck(m: Model, r: Real, via: Via): Promise<ModelOrder | null> {
  // A series is named from a channel it serves (decision 0041).
  const servedBy = (name: string) => m.series.find((x) => x.name.toLowerCase() === name.toLowerCase())?.channels[0];
  const input = {
    items: [{ name: "Tea", qty: 1 }],
    ...(via.by === "name" ? { series: via.name, channel: servedBy(via.name) ?? "counter" } : via.by === "channel" ? { channel: via.channel } : {}),
  };
  const s =
    via.by === "name"
      ? m.series.find((x) => x.name.toLowerCase() === via.name.toLowerCase())!
      : (m.series.find((x) => via.by === "channel" && x.channels.includes(via.channel)) ?? m.series[0]!);
  const want = expectation(m, s);
  const outcome = await r.h.orders.place(r.tenant, input, { channel: "counter", by: null }).then(
    ({ order }) => order,
    (e: unknown) => e,
  );
  if (want.full) {
    expect(outcome, `series ${s.name} ${display({ prefix: s.prefix, number: s.first })}–${s.last} has no free number`).toBeInstanceOf(AppError);
    expect(outcome).toMatchObject({ code: "SERIES_FULL", httpStatus: 409, details: { series: s.name } });
    // It stored nothing: the invariant counts the restaurant's orders against the model's.
    m.last.set(s.id, null);
    return null;
  }
  if (!(outcome && typeof outcome === "object" && "id" in outcome)) {
    throw new Error(`series ${s.name} had a free number, but the order was refused: ${String(outcome)}`);
  }
  const order = outcome as Order;
  const open = openNumbers(m, s.prefix);
  expect(order.prefix).toBe(s.prefix);
  expect(order.seriesId).toBe(s.isDefault ? null : s.id);
  expect(order.seriesName).toBe(s.isDefault ? null : s.name);
  expect(order.shift).toBe(m.shift);
  expect(open.has(order.number), `${display(order)} is still open`).toBe(false);
  expect(order.number).toBeGreaterThanOrEqual(s.first);
  if (s.last !== null) expect(order.number).toBeLessThanOrEqual(s.last);
  if (want.exactly !== null)
    expect(display(order), `series ${s.name}, after ${String(m.last.get(s.id) ?? "the shift's start")}`).toBe(
      display({ prefix: s.prefix, number: want.exactly }),
    );
  const placed: ModelOrder = { id: order.id, prefix: order.prefix, number: order.number, seriesId: order.seriesId, status: "PLACED", cleared: false };
  m.orders.push(placed);
  m.last.set(s.id, order.number);
  return placed;
}

async function move(m: Model, r: Real, o: ModelOrder, status: Status): Promise<void> {
  const moved = await r.h.orders.changeStatus(r.tenant, o.id, { status }, null);
  expect(moved.status).toBe(status);
  o.status = status;
}

async function collect(m: Model, r: Real, o: ModelOrder): Promise<void> {
  if (o.status === "PLACED") await move(m, r, o, "READY");
  await move(m, r, o, "COLLECTED");
}

/** The `pick`-th of the open orders that `which` accepts (none: null). */
function pickOpen(m: Model, pick: number, which: (o: ModelOrder) => boolean = () => true): ModelOrder | null {
  const open = m.orders.filter((o) => isOpen(o) && which(o));
  return open.length ? open[pick % open.length]! : null;
}

class Place implements fc.AsyncCommand<Model, Real> {
  constructor(readonly via: Via) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await placeAndCheck(m, r, this.via);
    await invariant(m, r);
  }
  toString = () => `place(${this.via.by === "name" ? `series ${this.via.name}` : this.via.by === "channel" ? `channel ${this.via.channel}` : "default"})`;
}

class Move implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly action: "ready" | "collect" | "cancel",
    readonly pick: number,
  ) {}
  check = (m: Readonly<Model>) => m.orders.some(isOpen);
  async run(m: Model, r: Real) {
    const o = pickOpen(m, this.pick, this.action === "ready" ? (x) => x.status === "PLACED" : undefined);
    if (o) {
      if (this.action === "ready") await move(m, r, o, "READY");
      else if (this.action === "collect") await collect(m, r, o);
      else await move(m, r, o, "CANCELLED");
    }
    await invariant(m, r);
  }
  toString = () => `${this.action}(${this.pick})`;
}

class NewShift implements fc.AsyncCommand<Model, Real> {
  constructor(readonly openOrders: "keep" | "clear") {}
  check = () => true;
  async run(m: Model, r: Real) {
    const started = await r.h.shifts.start(r.tenant, { openOrders: this.openOrders, reason: "property" }, "Manager (test)");
    expect(started.shift.shift).toBe(m.shift + 1);
    m.shift++;
    if (this.openOrders === "clear") for (const o of m.orders.filter(isOpen)) o.cleared = true;
    m.last.clear(); // every series starts again at its first ticket
    // What the manager is told the next number of the default series is.
    expect(started.nextNumber).toBe(nextDefault(m));
    await invariant(m, r);
  }
  toString = () => `newShift(${this.openOrders})`;
}

class ChangeSeries implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly patch: { prefix?: string; first?: number; size?: number },
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const s = m.series[1 + (this.index % (m.series.length - 1))]!;
    const first = this.patch.first ?? s.first;
    const body = {
      ...(this.patch.prefix !== undefined ? { prefix: this.patch.prefix } : {}),
      ...(this.patch.first !== undefined || this.patch.size !== undefined ? { first, last: first + (this.patch.size ?? s.last! - s.first + 1) - 1 } : {}),
    };
    if (Object.keys(body).length === 0) {
      // A patch that names nothing is refused, as a printer's is (decision 0041), and changes nothing.
      await expect(r.h.series.update(r.tenant, s.id, body, "Manager (test)")).rejects.toMatchObject({ code: "BAD_INPUT" });
      await invariant(m, r);
      return;
    }
    const saved = await r.h.series.update(r.tenant, s.id, body, "Manager (test)");
    expect(saved).toMatchObject({ id: s.id, name: s.name, ...body });
    // Orders already taken keep their number; the next tickets follow the new range.
    const rangeChanged = saved.first !== s.first || saved.last !== s.last;
    Object.assign(s, { prefix: saved.prefix, first: saved.first, last: saved.last });
    if (rangeChanged && m.last.has(s.id)) m.last.set(s.id, null);
    r.tenant = (await r.h.tenants.findById(r.tenant.id))!;
    expect(r.tenant.series?.map((x) => [x.name, x.prefix, x.first, x.last])).toEqual(m.series.map((x) => [x.name, x.prefix, x.first, x.last]));
    await invariant(m, r);
  }
  toString = () => `changeSeries(${SERIES_NAMES[this.index % SERIES_NAMES.length]}, ${JSON.stringify(this.patch)})`;
}

/** Enough orders in one series to come round: each collected as soon as it is taken, but the last. */
class Lap implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const s = m.series[1 + (this.index % (m.series.length - 1))]!;
    const size = s.last! - s.first + 1;
    let previous: ModelOrder | null = null;
    for (let i = 0; i <= size; i++) {
      if (previous) await collect(m, r, previous);
      previous = await placeAndCheck(m, r, { by: "name", name: s.name });
      await invariant(m, r);
    }
  }
  toString = () => `lap(${SERIES_NAMES[this.index % SERIES_NAMES.length]})`;
}

/** Orders into one series, none collected, until it is full (SERIES_FULL) — or a few more than its size. */
class Fill implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const s = m.series[1 + (this.index % (m.series.length - 1))]!;
    for (let i = 0; i <= s.last! - s.first + 1; i++) {
      const placed = await placeAndCheck(m, r, { by: "name", name: s.name });
      await invariant(m, r);
      if (!placed) break;
    }
  }
  toString = () => `fill(${SERIES_NAMES[this.index % SERIES_NAMES.length]})`;
}

const via: fc.Arbitrary<Via> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SERIES_NAMES, "alpha", "CHARLIE").map((name): Via => ({ by: "name", name })) },
  { weight: 2, arbitrary: fc.constantFrom<Channel>("kiosk", "delivery", "counter", "web").map((channel): Via => ({ by: "channel", channel })) },
  { weight: 1, arbitrary: fc.constant<Via>({ by: "none" }) },
);

const commands = fc.commands(
  [
    via.map((v) => new Place(v)),
    via.map((v) => new Place(v)),
    via.map((v) => new Place(v)),
    fc.tuple(fc.constantFrom("ready", "collect", "collect", "cancel"), fc.nat(50)).map(([a, p]) => new Move(a, p)),
    fc.tuple(fc.constantFrom("ready", "collect", "collect", "cancel"), fc.nat(50)).map(([a, p]) => new Move(a, p)),
    fc.constantFrom("keep", "clear").map((o) => new NewShift(o)),
    fc
      .tuple(
        fc.nat(2),
        fc.record(
          { prefix: fc.constantFrom("A", "B", "C", ""), first: fc.integer({ min: 1, max: 6 }), size: fc.integer({ min: 1, max: 5 }) },
          { requiredKeys: [] },
        ),
      )
      .map(([i, patch]) => new ChangeSeries(i, patch)),
    fc.nat(2).map((i) => new Lap(i)),
    fc.nat(2).map((i) => new Fill(i)),
  ],
  { maxCommands: 25 },
);

describe("number series against a model (real Redis and PostgreSQL)", () => {
  const h = createCoreHarness({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix("series-props") });
  afterAll(() => h.close());
  let seq = 0;

  /** A restaurant with three small series: Alpha A1–A4 (kiosk), Bravo B3–B6 (delivery), Charlie A3–A5 (overlapping Alpha). */
  async function setup(): Promise<{ model: Model; real: Real }> {
    const row = await h.db.tenant.create({
      data: {
        slug: `series-props-${process.pid}-${Date.now()}-${seq++}`,
        name: "Series props",
        timeZone: "UTC",
        // The business day turns 12 hours from now: never during a run.
        dayStartMinutes: ((new Date().getUTCHours() + 12) % 24) * 60,
      },
    });
    const plain = toTenant(row);
    for (const s of [
      { name: "Alpha", prefix: "A", first: 1, last: 4, channels: ["kiosk"] },
      { name: "Bravo", prefix: "B", first: 3, last: 6, channels: ["delivery"] },
      { name: "Charlie", prefix: "A", first: 3, last: 5, channels: [] },
    ])
      await h.series.create(plain, s, "Manager (test)");
    const tenant = (await h.tenants.findById(plain.id))!;
    expect(tenant.series?.map((s) => s.name)).toEqual(["Default", ...SERIES_NAMES]);
    return { model: { series: tenant.series!.map((s) => ({ ...s })), orders: [], shift: 1, last: new Map() }, real: { h, tenant } };
  }

  it("no two open orders show one number; SERIES_FULL only when full, storing nothing; numbers come round past open ones", async () => {
    await fc.assert(
      fc.asyncProperty(commands, (cmds) => fc.asyncModelRun(setup, cmds)),
      { numRuns: 30 },
    );
  });
});
