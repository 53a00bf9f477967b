/**
 * A station's screen bumps its share of an order (lib/core/station-bumps.ts), on in-memory
 * ports: a typed number is matched only against the orders still open at that station, the
 * last share done makes the order ready, Undo takes it back, and the default's screen also
 * finishes a removed station's parts.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { MenuItem } from "@/lib/core/menu";
import type { Station } from "@/lib/core/stations";
import type { Tenant } from "@/lib/core/tenants";
import { movableClock, wallTime } from "../support/clock";
import { memoryCore, memoryTenant } from "../support/in-memory-core";

const GRILL = randomUUID();
const BAR = randomUUID();
const grill: Station = { id: GRILL, name: "Grill", isDefault: true, printerId: null, position: 0 };
const bar: Station = { id: BAR, name: "Bar", isDefault: false, printerId: null, position: 1 };

const category = randomUUID();
const menu: MenuItem[] = [
  { id: randomUUID(), categoryId: category, name: "Burger", priceCents: 900, available: true, position: 0, stationId: null, optionGroups: [] },
  { id: randomUUID(), categoryId: category, name: "Cola", priceCents: 300, available: true, position: 1, stationId: BAR, optionGroups: [] },
];
const [burger, cola] = menu as [MenuItem, MenuItem];

async function setup() {
  const core = memoryCore({ clock: movableClock(wallTime("Europe/Berlin", "12:00")), menu });
  const tenant: Tenant = { ...memoryTenant(), stations: [grill, bar] };
  const place = async (...items: MenuItem[]) =>
    (await core.orderService.place(tenant, { items: items.map((i) => ({ menuItemId: i.id, qty: 1 })) }, { channel: "kiosk", by: null })).order;
  // 1: burger and cola; 2: cola only; 3: burger only.
  const orders = [await place(burger, cola), await place(cola), await place(burger)];
  return { core, tenant, orders, svc: core.orderService };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as { code: string; reason?: string },
  );

describe("a number typed on a station's screen", () => {
  it("does the station's part of the order it names; the last part done makes it ready", async () => {
    const { tenant, svc, orders } = await setup();
    expect(orders.map((o) => o.number)).toEqual([1, 2, 3]);
    const first = await svc.partDoneByNumber(tenant, { number: "1" }, GRILL, "Ana");
    expect(first.status).toBe("PLACED");
    expect(first.stations.map((p) => [p.name, p.doneBy])).toEqual([
      ["Grill", "Ana"],
      ["Bar", null],
    ]);
    const last = await svc.partDoneByNumber(tenant, { number: "1" }, BAR, "Ben");
    expect(last.status).toBe("READY");
  });

  it("matches only orders still open at that station: done here, or nothing here, is said as such", async () => {
    const { tenant, svc } = await setup();
    // 2 is cola only: open on the floor, nothing for the grill.
    expect(await refusal(svc.partDoneByNumber(tenant, { number: "2" }, GRILL, null))).toMatchObject({ code: "NOT_FOUND", reason: "nothingForStation" });
    await svc.partDoneByNumber(tenant, { number: "1" }, GRILL, null);
    // Done here already: typing it again changes nothing and says so.
    expect(await refusal(svc.partDoneByNumber(tenant, { number: "1" }, GRILL, null))).toMatchObject({ reason: "nothingForStation" });
    expect(await refusal(svc.partDoneByNumber(tenant, { number: "3" }, BAR, null))).toMatchObject({ reason: "nothingForStation" });
    expect(await refusal(svc.partDoneByNumber(tenant, { number: "9" }, BAR, null))).toMatchObject({ code: "NOT_FOUND", reason: "noOpenOrder" });
    expect(await refusal(svc.partDoneByNumber(tenant, { number: "Q3" }, BAR, null))).toMatchObject({ reason: "unknownPrefix" });
    expect(await refusal(svc.partDoneByNumber(tenant, { number: "abc" }, BAR, null))).toMatchObject({ code: "BAD_INPUT" });
  });

  it("an order whose last part is done is no longer open at any station", async () => {
    const { tenant, svc } = await setup();
    expect((await svc.partDoneByNumber(tenant, { number: "2" }, BAR, null)).status).toBe("READY");
    expect(await refusal(svc.partDoneByNumber(tenant, { number: "2" }, BAR, null))).toMatchObject({ reason: "nothingForStation" });
  });

  it("refuses a station the restaurant does not have", async () => {
    const { tenant, svc } = await setup();
    expect(await refusal(svc.partDoneByNumber(tenant, { number: "1" }, randomUUID(), null))).toMatchObject({ code: "NOT_FOUND", reason: "stationNotFound" });
    expect(await refusal(svc.partDoneByNumber(tenant, { number: "1" }, "grill", null))).toMatchObject({ reason: "stationNotFound" });
  });
});

describe("a station's Done and Undo by tap", () => {
  it("Undo of the part that made the order ready takes the Ready back; Done again is harmless", async () => {
    const { core, tenant, svc, orders } = await setup();
    const two = orders[1]!;
    expect((await svc.stationDone(tenant, two.id, BAR, null)).status).toBe("READY");
    const writes = core.db.moves.length;
    expect((await svc.stationDone(tenant, two.id, BAR, null)).status).toBe("READY");
    expect(core.db.moves.length).toBe(writes);
    const undone = await svc.stationUndo(tenant, two.id, BAR, null);
    expect(undone.status).toBe("PLACED");
    expect(undone.stations[0]!.doneAt).toBeNull();
    // And it can be typed again at the bar.
    expect((await svc.partDoneByNumber(tenant, { number: "2" }, BAR, null)).status).toBe("READY");
  });

  it("on the default's screen, a removed station's part is done with the default's own", async () => {
    const { tenant, svc, orders } = await setup();
    const withoutBar: Tenant = { ...tenant, stations: [grill] };
    // 1 has a Grill and a (removed) Bar part: one Done on the grill's screen finishes both.
    const one = await svc.partDoneByNumber(withoutBar, { number: "1" }, GRILL, null);
    expect(one.stations.every((p) => p.doneAt !== null)).toBe(true);
    expect(one.status).toBe("READY");
    // The removed station's own screen is gone.
    expect(await refusal(svc.stationDone(withoutBar, orders[1]!.id, BAR, null))).toMatchObject({ reason: "stationNotFound" });
    expect((await svc.stationDone(withoutBar, orders[1]!.id, GRILL, null)).status).toBe("READY");
  });
});
