"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { isAppError } from "@/lib/core/errors";
import { ORDER_STATUSES, type OrderStatus } from "@/lib/core/orders";
import { staffAction, type Translator } from "@/lib/edges/next/validated-action.server";
import { kitchenData } from "./kitchen-data.server";
import type { KitchenData } from "./types";

export interface StatusChanged {
  id: string;
  number: number;
  shift: number;
  status: OrderStatus;
}

const changed = (o: StatusChanged): StatusChanged => ({ id: o.id, number: o.number, shift: o.shift, status: o.status });

const nothing = () => z.object({});
const anOrder = (t: Translator) => z.object({ id: z.string({ error: t("common.errors.BAD_INPUT") }) });

/** The whole screen again, after a reconnect or an event. */
export const readKitchen = staffAction(["KITCHEN"], nothing, (_input, { app, caller }): Promise<KitchenData> => kitchenData(app, caller.tenant));

/** Moves one order (Ready, Collected, Undo, Cancel); illegal moves come back as readable errors. */
export const changeOrderStatus = staffAction(
  ["KITCHEN"],
  (t) => anOrder(t).extend({ status: z.enum(ORDER_STATUSES, { error: t("common.errors.BAD_INPUT") }) }),
  async ({ id, status }, { app, caller }): Promise<StatusChanged> => {
    const order = await app.orders.changeStatus(caller.tenant, id, { status });
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
  { kind: "moved"; order: StatusChanged } | { kind: "unknown"; number: number } | { kind: "several"; number: number; shifts: number[] } | { kind: "invalid" };

/** The counter's shortcut: the typed number's open order moves one step forward. */
export const advanceTypedNumber = staffAction(
  ["KITCHEN"],
  () => z.object({ number: z.string().trim().catch("") }),
  async ({ number: typed }, { app, caller }): Promise<TypedOutcome> => {
    // Digits only: "4e1" or "0x2a" would otherwise coerce to a number nobody typed.
    if (!/^\d{1,8}$/.test(typed)) return { kind: "invalid" };
    try {
      const order = await app.orders.advanceByNumber(caller.tenant, { number: typed });
      refresh();
      return { kind: "moved", order: changed(order) };
    } catch (e) {
      if (!isAppError(e)) throw e;
      const details = (e.details ?? {}) as { shifts?: number[] };
      if (e.code === "BAD_INPUT") return { kind: "invalid" };
      if (e.reason === "noOpenOrder") return { kind: "unknown", number: Number(typed) };
      if (e.reason === "severalOpen") return { kind: "several", number: Number(typed), shifts: details.shifts ?? [] };
      throw e;
    }
  },
);
