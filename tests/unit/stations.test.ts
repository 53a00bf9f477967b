import { describe, expect, it } from "vitest";
import type { OrderItem } from "@/lib/core/orders";
import { defaultStation, linesFor, partDone, partIsFor, partUndone, routeLines, toParts, type OrderPart, type Station } from "@/lib/core/stations";

const GRILL = "00000000-0000-4000-8000-00000000000a";
const BAR = "00000000-0000-4000-8000-00000000000b";
const GONE = "00000000-0000-4000-8000-00000000000c";
const stations: Station[] = [
  { id: BAR, name: "Bar", isDefault: false, printerId: null, position: 1 },
  { id: GRILL, name: "Grill", isDefault: true, printerId: null, position: 0 },
];

const burger: OrderItem = { name: "Burger", qty: 2, menuItemId: "burger" };
const cola: OrderItem = { name: "Cola", qty: 1, menuItemId: "cola" };
const lemonade: OrderItem = { name: "Lemonade", qty: 1, menuItemId: "lemonade" };
const free: OrderItem = { name: "Extra napkins", qty: 1 };

describe("routing a line to its station", () => {
  const menu = new Map([
    ["burger", { itemStationId: null, categoryStationId: null }],
    ["cola", { itemStationId: null, categoryStationId: BAR }],
    // The item's own station wins over its category's.
    ["lemonade", { itemStationId: GRILL, categoryStationId: BAR }],
  ]);

  it("takes the item's station over its category's over the default", () => {
    const { items, parts } = routeLines([burger, cola, lemonade, free], stations, (id) => menu.get(id));
    expect(items.map((l) => l.stationId)).toEqual([GRILL, BAR, GRILL, GRILL]);
    // One part per station with lines, in station order (Grill at 0, Bar at 1), none done.
    expect(parts).toEqual([
      { id: GRILL, name: "Grill", doneAt: null, doneBy: null },
      { id: BAR, name: "Bar", doneAt: null, doneBy: null },
    ]);
  });

  it("sends a line whose station was removed to the default", () => {
    const { items } = routeLines([cola], stations, () => ({ itemStationId: GONE, categoryStationId: GONE }));
    expect(items[0]!.stationId).toBe(GRILL);
  });

  it("changes nothing for a restaurant without stations", () => {
    const { items, parts } = routeLines([burger, free], [], (id) => menu.get(id));
    expect(items).toEqual([burger, free]);
    expect(items.some((l) => "stationId" in l)).toBe(false);
    expect(parts).toEqual([]);
  });

  it("gives an order without lines one part at the default station", () => {
    expect(routeLines([], stations, () => undefined).parts.map((p) => p.id)).toEqual([GRILL]);
  });

  it("takes the first station as the default when none is marked", () => {
    expect(defaultStation(stations.map((s) => ({ ...s, isDefault: false })))?.id).toBe(GRILL);
    expect(defaultStation([])).toBeNull();
  });
});

describe("which screen shows a part", () => {
  it("shows a removed station's part and lines on the default station's screen only", () => {
    const grill = stations.find((s) => s.id === GRILL)!;
    const bar = stations.find((s) => s.id === BAR)!;
    expect(partIsFor({ id: GONE }, grill, stations)).toBe(true);
    expect(partIsFor({ id: GONE }, bar, stations)).toBe(false);
    expect(partIsFor({ id: BAR }, grill, stations)).toBe(false);
    const lines = [
      { ...burger, stationId: GRILL },
      { ...cola, stationId: BAR },
      { ...free, stationId: GONE },
    ];
    expect(linesFor(lines, bar, stations).map((l) => l.name)).toEqual(["Cola"]);
    expect(linesFor(lines, grill, stations).map((l) => l.name)).toEqual(["Burger", "Extra napkins"]);
  });
});

const open = (done: Partial<Record<string, string>> = {}): OrderPart[] => [
  { id: GRILL, name: "Grill", doneAt: done[GRILL] ?? null, doneBy: done[GRILL] ? "Ana" : null },
  { id: BAR, name: "Bar", doneAt: done[BAR] ?? null, doneBy: done[BAR] ? "Ben" : null },
];
const at = new Date("2026-12-02T12:00:00Z");

describe("done by part, ready by itself", () => {
  it("keeps the order preparing until its last part is done, then makes it ready", () => {
    const first = partDone({ status: "PLACED", stations: open() }, GRILL, at, "Ana", "parts");
    expect(first).toEqual({ status: "PLACED", parts: open({ [GRILL]: at.toISOString() }) });
    const last = partDone({ status: "PLACED", stations: first!.parts }, BAR, at, "Ben", "parts");
    expect(last!.status).toBe("READY");
    expect(last!.parts.every((p) => p.doneAt === at.toISOString())).toBe(true);
  });

  it("leaves readiness to the expo when the restaurant chooses it", () => {
    const change = partDone({ status: "PLACED", stations: open({ [GRILL]: at.toISOString() }) }, BAR, at, "Ben", "expo");
    expect(change!.status).toBe("PLACED");
    expect(change!.parts.every((p) => p.doneAt !== null)).toBe(true);
  });

  it("makes a repeated Done, or one after the order is ready, a no-op", () => {
    expect(partDone({ status: "PLACED", stations: open({ [GRILL]: at.toISOString() }) }, GRILL, at, "Ana", "parts")).toBeNull();
    expect(partDone({ status: "READY", stations: open() }, GRILL, at, "Ana", "parts")).toBeNull();
  });

  it("refuses a station the order has no part of with 404", () => {
    expect(() => partDone({ status: "PLACED", stations: open() }, GONE, at, null, "parts")).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
  });
});

describe("undo of a part", () => {
  const bothDone = open({ [GRILL]: at.toISOString(), [BAR]: at.toISOString() });

  it("takes back a Ready its parts made: the order is prepared again", () => {
    const change = partUndone({ status: "READY", stations: bothDone }, BAR, "parts");
    expect(change!.status).toBe("PLACED");
    expect(change!.parts.find((p) => p.id === BAR)).toMatchObject({ doneAt: null, doneBy: null });
    expect(change!.parts.find((p) => p.id === GRILL)!.doneAt).toBe(at.toISOString());
  });

  it("leaves a Ready the expo made", () => {
    expect(partUndone({ status: "READY", stations: bothDone }, BAR, "expo")!.status).toBe("READY");
  });

  it("reopens a part of a preparing order, and does nothing for a part not done", () => {
    expect(partUndone({ status: "PLACED", stations: open({ [GRILL]: at.toISOString() }) }, GRILL, "parts")).toEqual({ status: "PLACED", parts: open() });
    expect(partUndone({ status: "PLACED", stations: open() }, GRILL, "parts")).toBeNull();
  });

  it("refuses once the order is collected", () => {
    expect(() => partUndone({ status: "COLLECTED", stations: bothDone }, BAR, "parts")).toThrow(expect.objectContaining({ code: "CONFLICT" }));
  });
});

describe("stored parts read back", () => {
  it("keeps parts and drops anything else", () => {
    expect(toParts([{ id: GRILL, name: "Grill", doneAt: null, doneBy: null }, { name: "no id" }, 3, null])).toEqual([
      { id: GRILL, name: "Grill", doneAt: null, doneBy: null },
    ]);
    expect(toParts("nonsense")).toEqual([]);
  });
});
