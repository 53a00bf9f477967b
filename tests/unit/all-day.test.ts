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
});
