"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { isAppError } from "@/lib/core/errors";
import { ORDER_STATUSES, type OrderStatus } from "@/lib/core/orders";
import type { TypedCandidate } from "@/lib/core/kitchen";
import { displayNumber, parseTypedNumber } from "@/lib/core/series";
import { staffAction, type Translator } from "@/lib/edges/next/validated-action.server";
import { kitchenData } from "./kitchen-data.server";
import type { KitchenData } from "./types";

export interface StatusChanged {
  id: string;
  number: number;
  /** What the screen says: "K12", or "12" without a prefix. */
  display: string;
  shift: number;
  status: OrderStatus;
}

const changed = (o: Omit<StatusChanged, "display"> & { prefix: string }): StatusChanged => ({
  id: o.id,
  number: o.number,
  display: displayNumber(o.prefix, o.number),
  shift: o.shift,
  status: o.status,
});

/** A station's screen names its station; the main kitchen sends none. */
const aScreen = () => z.object({ station: z.string().trim().min(1).optional().catch(undefined) });
const anOrder = (t: Translator) => z.object({ id: z.string({ error: t("common.errors.BAD_INPUT") }) });

/** The whole screen again, after a reconnect or an event. */
export const readKitchen = staffAction(["KITCHEN"], aScreen, ({ station }, { app, caller }): Promise<KitchenData> =>
  kitchenData(app, caller.tenant, station ?? null),
);

/** Moves one order (Ready, Collected, Undo, Cancel); illegal moves come back as readable errors. */
export const changeOrderStatus = staffAction(
  ["KITCHEN"],
  (t) => anOrder(t).extend({ status: z.enum(ORDER_STATUSES, { error: t("common.errors.BAD_INPUT") }) }),
  async ({ id, status }, { app, caller }): Promise<StatusChanged> => {
    const order = await app.orders.changeStatus(caller.tenant, id, { status }, caller.by);
    refresh();
    return changed(order);
  },
);

/** Call again: every board of the restaurant calls this ready number once more. */
export const callOrderAgain = staffAction(["KITCHEN"], anOrder, async ({ id }, { app, caller }): Promise<StatusChanged> => {
  const order = await app.orders.callAgain(caller.tenant, id);
  refresh();
  return changed(order);
});

/** What a typed number did; the expected misses are data, so the screen words them in its language. */
export type TypedOutcome =
  | { kind: "moved"; order: StatusChanged }
  | { kind: "unknown"; display: string }
  | { kind: "unknownPrefix"; prefix: string }
  /** More than one open order shows it (12 and K12): the screen asks which. */
  | { kind: "several"; display: string; candidates: TypedCandidate[] }
  | { kind: "invalid" };

/** The counter's shortcut: the typed number's open order (`K12`, `k12`, `12`) moves one step forward. */
export const advanceTypedNumber = staffAction(
  ["KITCHEN"],
  () => z.object({ number: z.string().trim().catch("") }),
  async ({ number: text }, { app, caller }): Promise<TypedOutcome> => {
    // The same reading as the service's, checked here so that "4e1" or "0x2a" is a miss the screen words, not a coerced number.
    const typed = parseTypedNumber(text);
    if (!typed) return { kind: "invalid" };
    const display = displayNumber(typed.prefix ?? "", typed.number);
    try {
      const order = await app.orders.advanceByNumber(caller.tenant, { number: text }, caller.by);
      refresh();
      return { kind: "moved", order: changed(order) };
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (e.code === "BAD_INPUT") return { kind: "invalid" };
      if (e.reason === "noOpenOrder") return { kind: "unknown", display };
      if (e.reason === "unknownPrefix") return { kind: "unknownPrefix", prefix: typed.prefix ?? "" };
      if (e.reason === "severalOpen") {
        const details = (e.details ?? {}) as { candidates?: TypedCandidate[] };
        return { kind: "several", display, candidates: details.candidates ?? [] };
      }
      throw e;
    }
  },
);

/** What a station's Done or Undo did: the order's number, and its status after it (Ready when that was its last part). */
export type PartChanged = StatusChanged;

const aPart = (t: Translator) => anOrder(t).extend({ station: z.string({ error: t("common.errors.BAD_INPUT") }) });

/** A station's screen: its share of the order is done (the last share done makes the order ready). */
export const stationDone = staffAction(["KITCHEN"], aPart, async ({ id, station }, { app, caller }): Promise<PartChanged> => {
  const order = await app.orders.stationDone(caller.tenant, id, station, caller.by);
  refresh();
  return changed(order);
});

/** Undo of a station's Done: its share is open again, and a Ready it made is taken back. */
export const stationUndo = staffAction(["KITCHEN"], aPart, async ({ id, station }, { app, caller }): Promise<PartChanged> => {
  const order = await app.orders.stationUndo(caller.tenant, id, station, caller.by);
  refresh();
  return changed(order);
});

/** What a number typed on a station's screen did; `nothingHere`: open, but with nothing left for this station. */
export type StationTypedOutcome = { kind: "done"; order: PartChanged } | { kind: "nothingHere"; display: string } | Exclude<TypedOutcome, { kind: "moved" }>;

/** A station's typed number: that order's share of the station is done. */
export const stationTypedNumber = staffAction(
  ["KITCHEN"],
  () => z.object({ number: z.string().trim().catch(""), station: z.string().catch("") }),
  async ({ number: text, station }, { app, caller }): Promise<StationTypedOutcome> => {
    const typed = parseTypedNumber(text);
    if (!typed) return { kind: "invalid" };
    const display = displayNumber(typed.prefix ?? "", typed.number);
    try {
      const order = await app.orders.partDoneByNumber(caller.tenant, { number: text }, station, caller.by);
      refresh();
      return { kind: "done", order: changed(order) };
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (e.code === "BAD_INPUT") return { kind: "invalid" };
      if (e.reason === "noOpenOrder") return { kind: "unknown", display };
      if (e.reason === "nothingForStation") return { kind: "nothingHere", display };
      if (e.reason === "unknownPrefix") return { kind: "unknownPrefix", prefix: typed.prefix ?? "" };
      if (e.reason === "severalOpen") {
        const details = (e.details ?? {}) as { candidates?: TypedCandidate[] };
        return { kind: "several", display, candidates: details.candidates ?? [] };
      }
      throw e;
    }
  },
);
