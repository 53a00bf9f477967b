import { describe, expect, it } from "vitest";
import { businessDayAt, type BusinessDay } from "@/lib/core/business-day";
import type { Order } from "@/lib/core/orders";
import type { WaitHistory } from "@/lib/core/ports";
import type { ReadySample } from "@/lib/core/wait-estimate";
import { WaitEstimates } from "@/lib/core/wait-service";
import { memoryTenant } from "../support/in-memory-core";
import { movableClock, wallTime } from "../support/clock";

const MIN = 60_000;

/** A history port that answers `samples` and records every read. */
function history(samples: () => ReadySample[]) {
  const reads: { days: readonly BusinessDay[]; placedSince: Date; readySince: Date }[] = [];
  const port: WaitHistory = {
    readies: async (_tenantId, days, placedSince, readySince) => {
      reads.push({ days, placedSince, readySince });
      return samples();
    },
    replayOrders: async () => [],
  };
  return { port, reads };
}

const order = (over: Partial<Order>): Order =>
  ({ id: "o1", status: "PLACED", clearedAt: null, createdAt: new Date(), readyAt: null, collectedAt: null, cancelledAt: null, ...over }) as Order;

describe("the wait estimates as the edges read them (decision 0052)", () => {
  const clock = movableClock(wallTime("Europe/Berlin", "13:00"));
  const tenant = memoryTenant("wok");
  const steady = () =>
    Array.from({ length: 12 }, (_, i) => ({ placedAt: clock.now().getTime() - (20 + 3 * i) * MIN, readyAt: clock.now().getTime() - (14 + 3 * i) * MIN }));

  it("reads the restaurant's last hour once per cache period, whatever the number of customers asking", async () => {
    const h = history(steady);
    const waits = new WaitEstimates({ history: h.port, clock });
    const placed = order({ createdAt: clock.now() });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, ahead) => waits.of(tenant, placed, ahead)));
    expect(h.reads).toHaveLength(1);
    expect(answers[0]).toEqual({ low: 6, high: 6, late: false });
    // The window asked for: made ready in the last hour, taken within the last 4 hours, of today's business day.
    expect(h.reads[0]!.readySince.getTime()).toBe(clock.now().getTime() - 60 * MIN);
    expect(h.reads[0]!.placedSince.getTime()).toBe(clock.now().getTime() - 240 * MIN);
    expect(h.reads[0]!.days).toEqual([businessDayAt(clock.now(), tenant)]);
  });

  it("a cache of 0 ms reads every time (the TTL is what bounds staleness)", async () => {
    const h = history(steady);
    const waits = new WaitEstimates({ history: h.port, clock, cacheMs: 0 });
    await waits.summary(tenant);
    await waits.summary(tenant);
    expect(h.reads).toHaveLength(2);
  });

  it("only an order being prepared is told a wait, and it reads nothing for the others", async () => {
    const h = history(steady);
    const waits = new WaitEstimates({ history: h.port, clock });
    for (const o of [order({ status: "READY" }), order({ status: "COLLECTED" }), order({ status: "CANCELLED" }), order({ clearedAt: clock.now() })]) {
      expect(await waits.of(tenant, o, 0)).toBeNull();
    }
    expect(h.reads).toHaveLength(0);
  });

  it("too little history: null", async () => {
    const waits = new WaitEstimates({ history: history(() => steady().slice(0, 9)).port, clock });
    expect(await waits.of(tenant, order({ createdAt: clock.now() }), 3)).toBeNull();
  });
});
