import { describe, expect, it } from "vitest";
import { dayTakings, type TakingsOrder } from "@/lib/core/reports/takings";

const order = (over: Partial<TakingsOrder> = {}): TakingsOrder => ({
  shift: 1,
  channel: "counter",
  service: null,
  status: "COLLECTED",
  items: [{ qty: 1, priceCents: 1000 }],
  ...over,
});

describe("dayTakings", () => {
  it("an empty day: every sum 0, its shifts listed, nothing per channel or service", () => {
    expect(dayTakings([], { shifts: [1], currency: "EUR" })).toEqual({
      currency: "EUR",
      total: { orders: 0, totalCents: 0, unpricedOrders: 0 },
      shifts: [{ shift: 1, orders: 0, totalCents: 0, unpricedOrders: 0 }],
      channels: [],
      services: [],
      cancelled: { orders: 0, totalCents: 0, unpricedOrders: 0 },
    });
    expect(dayTakings([], { shifts: [], currency: null }).shifts).toEqual([]);
  });

  it("sums price × quantity per shift; cancelled orders are counted apart and in no sum", () => {
    const t = dayTakings(
      [
        order({
          shift: 1,
          items: [
            { qty: 2, priceCents: 1450 },
            { qty: 1, priceCents: 300 },
          ],
        }),
        order({ shift: 1, status: "PLACED", items: [{ qty: 1, priceCents: 1250 }] }),
        order({ shift: 2, status: "READY", items: [{ qty: 3, priceCents: 500 }] }),
        order({ shift: 2, status: "CANCELLED", items: [{ qty: 2, priceCents: 1250 }] }),
        order({ shift: 3, status: "CANCELLED", items: [{ qty: 1, priceCents: 99 }] }),
      ],
      { shifts: [1, 2, 3], currency: "CNY" },
    );
    expect(t.total).toEqual({ orders: 3, totalCents: 3200 + 1250 + 1500, unpricedOrders: 0 });
    expect(t.shifts).toEqual([
      { shift: 1, orders: 2, totalCents: 4450, unpricedOrders: 0 },
      { shift: 2, orders: 1, totalCents: 1500, unpricedOrders: 0 },
      // Only cancelled orders: the shift is listed, with nothing sold.
      { shift: 3, orders: 0, totalCents: 0, unpricedOrders: 0 },
    ]);
    expect(t.cancelled).toEqual({ orders: 2, totalCents: 2599, unpricedOrders: 0 });
    expect(t.currency).toBe("CNY");
  });

  it("an order cleared off the floor without being collected still counts as sold", () => {
    // Cleared orders keep their status (PLACED or READY): only CANCELLED leaves the sums.
    const t = dayTakings([order({ status: "READY" }), order({ status: "PLACED" })], { shifts: [1], currency: null });
    expect(t.total).toEqual({ orders: 2, totalCents: 2000, unpricedOrders: 0 });
  });

  it("a line without a price counts 0, and its order is counted so the total is known to be partial", () => {
    const t = dayTakings(
      [
        order({ items: [{ qty: 2, priceCents: 700 }, { qty: 5 }] }),
        order({ items: [{ qty: 1 }] }),
        order({ items: [] }),
        order({ status: "CANCELLED", items: [{ qty: 1 }, { qty: 1, priceCents: 400 }] }),
      ],
      { shifts: [1], currency: "EUR" },
    );
    expect(t.total).toEqual({ orders: 3, totalCents: 1400, unpricedOrders: 2 });
    expect(t.shifts[0]).toEqual({ shift: 1, orders: 3, totalCents: 1400, unpricedOrders: 2 });
    expect(t.cancelled).toEqual({ orders: 1, totalCents: 400, unpricedOrders: 1 });
  });

  it("options are in the unit price: they are summed as the line's priceCents, nothing added again", () => {
    // Beef noodles 12.50 + Large 2.00 → 14.50 a bowl, as the order line stores it.
    const line = { qty: 2, priceCents: 1450, options: [{ group: "Size", name: "Large", priceCents: 200 }] };
    expect(dayTakings([order({ items: [line] })], { shifts: [1], currency: "EUR" }).total.totalCents).toBe(2900);
  });

  it("per channel (known ones in their usual order, then others by name) and per service (eat in, take away, not stated)", () => {
    const t = dayTakings(
      [
        order({ channel: "delivery", service: "takeAway", items: [{ qty: 1, priceCents: 2000 }] }),
        order({ channel: "kiosk", service: "eatIn", items: [{ qty: 1, priceCents: 1000 }] }),
        order({ channel: "kiosk", service: "takeAway", items: [{ qty: 1, priceCents: 500 }, { qty: 1 }] }),
        order({ channel: "zz-partner", service: null, items: [{ qty: 1, priceCents: 100 }] }),
        order({ channel: "counter", service: null, items: [{ qty: 1, priceCents: 50 }] }),
        order({ channel: "phone", service: "eatIn", status: "CANCELLED", items: [{ qty: 1, priceCents: 9999 }] }),
      ],
      { shifts: [1], currency: "EUR" },
    );
    expect(t.channels).toEqual([
      { channel: "kiosk", orders: 2, totalCents: 1500, unpricedOrders: 1 },
      { channel: "counter", orders: 1, totalCents: 50, unpricedOrders: 0 },
      { channel: "delivery", orders: 1, totalCents: 2000, unpricedOrders: 0 },
      { channel: "zz-partner", orders: 1, totalCents: 100, unpricedOrders: 0 },
    ]);
    expect(t.services).toEqual([
      { service: "eatIn", orders: 1, totalCents: 1000, unpricedOrders: 0 },
      { service: "takeAway", orders: 2, totalCents: 2500, unpricedOrders: 1 },
      { service: null, orders: 2, totalCents: 150, unpricedOrders: 0 },
    ]);
    // Every breakdown adds up to the total.
    for (const parts of [t.shifts, t.channels, t.services]) {
      expect(parts.reduce((n, p) => n + p.totalCents, 0)).toBe(t.total.totalCents);
      expect(parts.reduce((n, p) => n + p.orders, 0)).toBe(t.total.orders);
    }
  });

  it("a shift seen only in the orders is listed too, in order", () => {
    const t = dayTakings([order({ shift: 3 }), order({ shift: 1 })], { shifts: [1, 2], currency: null });
    expect(t.shifts.map((s) => [s.shift, s.orders])).toEqual([
      [1, 1],
      [2, 0],
      [3, 1],
    ]);
  });

  it("adds integers only: a price that is not whole minor units is a bug, not an amount to round", () => {
    expect(() => dayTakings([order({ items: [{ qty: 1, priceCents: 12.5 }] })], { shifts: [1], currency: null })).toThrow(RangeError);
    expect(() =>
      dayTakings([order({ items: [{ qty: 1, priceCents: Number.MAX_SAFE_INTEGER }] }), order({ items: [{ qty: 1, priceCents: 1 }] })], {
        shifts: [1],
        currency: null,
      }),
    ).toThrow(RangeError);
  });
});
