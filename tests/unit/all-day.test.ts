import { describe, expect, it } from "vitest";
import { allDay } from "@/lib/core/all-day";
import type { OrderItem, OrderStatus } from "@/lib/core/orders";

const order = (status: OrderStatus, ...items: [string, number][]) => ({ status, items: items.map(([name, qty]): OrderItem => ({ name, qty })) });

describe("all day", () => {
  it("sums each dish over the orders still to prepare, most needed first", () => {
    const lines = allDay([
      order("PLACED", ["Beef noodles", 2], ["Tea", 1]),
      order("PLACED", ["Dumplings", 12]),
      order("PLACED", ["Beef noodles", 1], ["Dumplings", 6]),
      order("PLACED", ["Tea", 3]),
    ]);
    expect(lines).toEqual([
      { name: "Dumplings", qty: 18 },
      { name: "Tea", qty: 4 },
      { name: "Beef noodles", qty: 3 },
    ]);
  });

  it("leaves out ready, collected and cancelled orders: they are cooked or gone", () => {
    const lines = allDay([order("PLACED", ["Soup", 1]), order("READY", ["Soup", 5]), order("COLLECTED", ["Soup", 2]), order("CANCELLED", ["Rice", 9])]);
    expect(lines).toEqual([{ name: "Soup", qty: 1 }]);
  });

  it("counts a dish once however its name is spaced or cased, shown as first written", () => {
    const lines = allDay([order("PLACED", ["Mapo tofu", 1]), order("PLACED", ["  mapo  Tofu ", 2]), order("PLACED", ["   ", 4])]);
    expect(lines).toEqual([{ name: "Mapo tofu", qty: 3 }]);
  });

  it("orders equal counts by name, so the list holds still between reads, and is empty with nothing to prepare", () => {
    expect(allDay([order("PLACED", ["Tea", 2], ["Bao", 2])]).map((l) => l.name)).toEqual(["Bao", "Tea"]);
    expect(allDay([])).toEqual([]);
  });

  it("counts a dish apart per set of options, as its line label reads; a line's note and a sold-out flag do not split it", () => {
    const bowl = (qty: number, size: string, extra: Partial<OrderItem> = {}): OrderItem => ({
      name: "Beef noodles",
      qty,
      options: [{ group: "Size", name: size, priceCents: size === "Large" ? 200 : 0 }],
      ...extra,
    });
    const lines = allDay([
      { status: "PLACED", items: [bowl(2, "Large", { note: "no coriander" }), bowl(1, "Small")] },
      { status: "PLACED", items: [bowl(1, "Large", { soldOut: true }), bowl(1, "Small", { note: "extra spicy" }), { name: "Beef noodles", qty: 4 }] },
      { status: "READY", items: [bowl(9, "Large")] },
    ]);
    expect(lines).toEqual([
      { name: "Beef noodles", qty: 4 },
      { name: "Beef noodles · Large", qty: 3 },
      { name: "Beef noodles · Small", qty: 2 },
    ]);
  });

  it("keeps options in their order: Large · Extra spicy is not Large alone", () => {
    const item = (...options: string[]): OrderItem => ({ name: "Beef noodles", qty: 1, options: options.map((name) => ({ group: "g", name, priceCents: 0 })) });
    expect(allDay([{ status: "PLACED", items: [item("Large", "Extra spicy"), item("Large"), item("Large", "Extra spicy")] }])).toEqual([
      { name: "Beef noodles · Large · Extra spicy", qty: 2 },
      { name: "Beef noodles · Large", qty: 1 },
    ]);
  });
});
