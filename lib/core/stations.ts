/**
 * Kitchen stations (issue #40): where each line of an order is made, the order's parts (one
 * per station with lines of it), and when the parts make the order ready. Pure: the service
 * (station-service.ts, order-parts.ts) applies these through ports.
 */
import { z } from "zod";
import { AppError } from "./errors";
import { lineText } from "./text";
import type { OrderItem, OrderStatus } from "./orders";

export interface Station {
  id: string;
  name: string;
  /** Lines without a station of their own go here; exactly one of a restaurant's stations while it has any. */
  isDefault: boolean;
  /** Prints a kitchen chit of its lines of each order; null: none. */
  printerId: string | null;
  position: number;
}

/** One station's share of an order, stored on the order: its name as it was, and when it was done. */
export interface OrderPart {
  id: string;
  name: string;
  /** ISO time the station marked its part done; null: still working on it. */
  doneAt: string | null;
  doneBy: string | null;
}

/** "parts": an order is ready when its last part is done; "expo": when an expo screen bumps it. */
export const READY_WHEN = ["parts", "expo"] as const;
export type ReadyWhen = (typeof READY_WHEN)[number];

/** A stored readyWhen; anything unknown reads as the default, "parts". */
export const asReadyWhen = (v: string | null | undefined): ReadyWhen => (v === "expo" ? "expo" : "parts");

export const STATION_LIMITS = { name: 40, stations: 20 } as const;

const nameSchema = lineText("Name").min(1, "Name is required").max(STATION_LIMITS.name, `Name is too long (${STATION_LIMITS.name} characters at most)`);
const printerIdSchema = z.uuid({ error: "printerId must be a printer id (UUID), or null for none" }).nullable();

export const newStationSchema = z.strictObject({
  name: nameSchema,
  default: z.boolean({ error: "default must be true or false" }).optional(),
  printerId: printerIdSchema.optional(),
});
export const stationPatchSchema = z
  .strictObject({
    name: nameSchema.optional(),
    default: z.literal(true, { error: "default can only be set to true: make another station the default instead" }).optional(),
    printerId: printerIdSchema.optional(),
  })
  .refine((o) => Object.keys(o).length > 0, { error: "Nothing to change: send at least one field" });

/** A station id as menu categories and items take it: a UUID, or null for none. */
export const stationRefSchema = z.uuid({ error: "stationId must be a station id (UUID), or null for none" }).nullable();

/** Stations in screen order: position, then name. */
export const byStationOrder = (a: Station, b: Station) => a.position - b.position || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/** The station of a restaurant's stations that takes lines without one: the marked default, else the first. */
export function defaultStation(stations: readonly Station[]): Station | null {
  return stations.find((s) => s.isDefault) ?? [...stations].sort(byStationOrder)[0] ?? null;
}

/** What decides a menu line's station: the item's own, then its category's (each only if that station still exists). */
export interface LineStations {
  itemStationId: string | null;
  categoryStationId: string | null;
}

/**
 * Each line's station — an item's own wins over its category's, else the default — and the
 * parts that makes: one per station with lines, in station order. Without stations nothing
 * changes: the lines as they are, no parts.
 */
export function routeLines(
  items: readonly OrderItem[],
  stations: readonly Station[],
  menu: (menuItemId: string) => LineStations | undefined,
): { items: OrderItem[]; parts: OrderPart[] } {
  const fallback = defaultStation(stations);
  if (!fallback) return { items: [...items], parts: [] };
  const live = new Set(stations.map((s) => s.id));
  const routed = items.map((line) => {
    const known = line.menuItemId === undefined ? undefined : menu(line.menuItemId);
    const own = known?.itemStationId && live.has(known.itemStationId) ? known.itemStationId : null;
    const ofCategory = known?.categoryStationId && live.has(known.categoryStationId) ? known.categoryStationId : null;
    return { ...line, stationId: own ?? ofCategory ?? fallback.id };
  });
  const used = new Set(routed.map((l) => l.stationId));
  // An order with no lines at all (a number-only kiosk) is still made somewhere: the default station.
  if (used.size === 0) used.add(fallback.id);
  const parts = [...stations]
    .sort(byStationOrder)
    .filter((s) => used.has(s.id))
    .map((s) => ({ id: s.id, name: s.name, doneAt: null, doneBy: null }));
  return { items: routed, parts };
}

/**
 * Whether a part belongs on station `station`'s screen: its own, or — on the default
 * station's screen — a part of a station removed since (its work moves to the default).
 */
export function partIsFor(part: Pick<OrderPart, "id">, station: Pick<Station, "id" | "isDefault">, stations: readonly Pick<Station, "id">[]): boolean {
  return part.id === station.id || (station.isDefault && !stations.some((s) => s.id === part.id));
}

/** The lines a station makes (a removed station's lines show on the default's screen, as its parts do). */
export function linesFor(items: readonly OrderItem[], station: Pick<Station, "id" | "isDefault">, stations: readonly Pick<Station, "id">[]): OrderItem[] {
  return items.filter((l) => l.stationId !== undefined && partIsFor({ id: l.stationId }, station, stations));
}

/** The change a part's Done or Undo makes: the order's parts and status after it (status unchanged: parts only). */
export interface PartChange {
  parts: OrderPart[];
  status: OrderStatus;
}

const unknownPart = (stationId: string) =>
  new AppError("NOT_FOUND", {
    message: `The order has no part of station ${stationId}`,
    userMessage: "This order has nothing for that station.",
    reason: "stationNotInOrder",
  });

/**
 * Station `stationId` marks its part of an order done. Null: nothing to write (done already,
 * or the order is past preparing — a late tap is harmless). In `parts` mode the last part done
 * makes a preparing order ready; in `expo` mode only the expo screen does.
 */
export function partDone(
  order: { status: OrderStatus; stations: readonly OrderPart[] },
  stationId: string,
  at: Date,
  by: string | null,
  readyWhen: ReadyWhen,
): PartChange | null {
  const part = order.stations.find((p) => p.id === stationId);
  if (!part) throw unknownPart(stationId);
  if (part.doneAt !== null || order.status !== "PLACED") return null;
  const parts = order.stations.map((p) => (p.id === stationId ? { ...p, doneAt: at.toISOString(), doneBy: by } : { ...p }));
  const allDone = parts.every((p) => p.doneAt !== null);
  return { parts, status: readyWhen === "parts" && allDone ? "READY" : order.status };
}

/**
 * Undo of a station's Done. A ready order that its parts made ready goes back to preparing
 * (its Ready is taken back, as the kitchen's Undo does); one the expo made ready stays ready.
 * Null: nothing to write (the part is not done). A collected or cancelled order refuses it.
 */
export function partUndone(order: { status: OrderStatus; stations: readonly OrderPart[] }, stationId: string, readyWhen: ReadyWhen): PartChange | null {
  const part = order.stations.find((p) => p.id === stationId);
  if (!part) throw unknownPart(stationId);
  if (part.doneAt === null) return null;
  if (order.status === "COLLECTED" || order.status === "CANCELLED") {
    throw new AppError("CONFLICT", {
      message: `The order is ${order.status}: its parts can no longer change`,
      userMessage: `This order is ${order.status === "COLLECTED" ? "collected" : "cancelled"}; its part cannot be undone.`,
      reason: "illegalMove",
      details: { from: order.status, to: "PLACED" },
    });
  }
  const parts = order.stations.map((p) => (p.id === stationId ? { ...p, doneAt: null, doneBy: null } : { ...p }));
  return { parts, status: order.status === "READY" && readyWhen === "parts" ? "PLACED" : order.status };
}

/** The parts on the wire: `done` said outright. */
export const partJson = (p: OrderPart) => ({ id: p.id, name: p.name, done: p.doneAt !== null, doneAt: p.doneAt });

/** Stored parts as read back (a jsonb column): anything not a part is dropped, never trusted. */
export function toParts(raw: unknown): OrderPart[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((p: unknown) => {
    if (!p || typeof p !== "object") return [];
    const o = p as Record<string, unknown>;
    if (typeof o.id !== "string" || typeof o.name !== "string") return [];
    return [{ id: o.id, name: o.name, doneAt: typeof o.doneAt === "string" ? o.doneAt : null, doneBy: typeof o.doneBy === "string" ? o.doneBy : null }];
  });
}
