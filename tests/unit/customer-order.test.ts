import { describe, expect, it } from "vitest";
import { customerRead, customerStage, isOfEarlierDay } from "@/lib/core/customer-order";
import { applyAhead } from "@/lib/core/queue-position";
import type { BoardOrder } from "@/lib/core/orders";

const order = (over: Partial<BoardOrder> = {}): BoardOrder => ({
  key: "2026-11-21/1/3",
  number: 3,
  prefix: "",
  display: "3",
  status: "PLACED",
  businessDay: "2026-11-21",
  shift: 1,
  createdAt: "2026-11-21T12:03:00.000Z",
  readyAt: null,
  cleared: false,
  service: null,
  ...over,
});

describe("what the customer's page says", () => {
  const today = "2026-11-21";
  it("follows the status of today's order", () => {
    expect(customerStage(order())).toBe("preparing");
    expect(customerStage(order({ status: "READY" }))).toBe("ready");
    expect(customerStage(order({ status: "COLLECTED" }))).toBe("collected");
    expect(customerStage(order({ status: "CANCELLED" }))).toBe("cancelled");
  });

  it("says so when a manager cleared the order at a new shift", () => {
    expect(customerStage(order({ cleared: true }))).toBe("cleared");
    expect(customerStage(order({ status: "READY", cleared: true }))).toBe("cleared");
  });

  it("follows an open order of an earlier business day as any other (it is still on the floor), and says which day it is of", () => {
    expect(customerStage(order({ businessDay: "2026-11-20" }))).toBe("preparing");
    expect(customerStage(order({ status: "READY", businessDay: "2026-11-20" }))).toBe("ready");
    expect(customerStage(order({ status: "COLLECTED", businessDay: "2026-11-20" }))).toBe("collected");
    expect(isOfEarlierDay(order({ businessDay: "2026-11-20" }), today)).toBe(true);
    expect(isOfEarlierDay(order(), today)).toBe(false);
  });
});

describe("orders ahead on the customer's page", () => {
  it("count down through live events", () => {
    const mine = order();
    const first = order({ key: "2026-11-21/1/1", number: 1, createdAt: "2026-11-21T12:01:00.000Z" });
    let ahead: ReadonlySet<string> = new Set([first.key]);
    ahead = applyAhead(ahead, { ...first, status: "READY" }, mine);
    expect(ahead.size).toBe(0);
  });
});

describe("reading the order again (on a reconnect)", () => {
  it("takes a fresh order, says so when the restaurant no longer has it, and keeps what it shows when the read failed", () => {
    expect(customerRead({ ok: true })).toBe("fresh");
    // Restored from a backup taken before the order: the read finds none.
    expect(customerRead({ ok: false, code: "NOT_FOUND" })).toBe("unknown");
    // Offline, a restart, a refusal: nothing learned about the order.
    expect(customerRead(null)).toBe("unchanged");
    expect(customerRead(undefined)).toBe("unchanged");
    expect(customerRead({ ok: false, code: "UNAVAILABLE" })).toBe("unchanged");
    expect(customerRead({ ok: false, code: "RATE_LIMITED" })).toBe("unchanged");
    expect(customerRead({ ok: false, code: "BAD_INPUT" })).toBe("unchanged");
  });
});
