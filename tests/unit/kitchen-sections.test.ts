import { describe, expect, it } from "vitest";
import { kitchenSections } from "@/lib/core/kitchen-sections";
import type { OrderStatus } from "@/lib/core/orders";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();
const o = (id: string, status: OrderStatus, created: number, ready: number | null = null) => ({
  id,
  status,
  createdAt: minutesAgo(created),
  readyAt: ready === null ? null : minutesAgo(ready),
});

describe("kitchen sections", () => {
  it("splits open orders into to prepare (oldest first), ready on the board and not collected (longest waiting first)", () => {
    const open = [
      o("p-new", "PLACED", 2),
      o("r-old", "READY", 30, 12),
      o("p-old", "PLACED", 9),
      o("r-new", "READY", 6, 1),
      o("r-mid", "READY", 8, 5),
      o("r-gone", "READY", 40, 25),
    ];
    const s = kitchenSections(open, NOW, 10);
    expect(s.toPrepare.map((x) => x.id)).toEqual(["p-old", "p-new"]);
    expect(s.ready.map((x) => x.id)).toEqual(["r-mid", "r-new"]);
    expect(s.notCollected.map((x) => x.id)).toEqual(["r-gone", "r-old"]);
  });

  it("moves a ready order to not collected exactly when it leaves the board", () => {
    const open = [o("r", "READY", 20, 10)];
    expect(kitchenSections(open, NOW - 1, 10).ready.map((x) => x.id)).toEqual(["r"]);
    expect(kitchenSections(open, NOW, 10).notCollected.map((x) => x.id)).toEqual(["r"]);
  });
});
