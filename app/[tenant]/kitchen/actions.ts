"use server";

import { refresh } from "next/cache";
import type { OrderStatus } from "@/lib/core/orders";
import { staffAction } from "@/lib/adapters/next/staff.server";

export interface StatusChanged {
  id: string;
  number: number;
  status: OrderStatus;
}

/** Moves one order (Ready, Collected, Back to preparing, Cancel); illegal moves come back as readable errors. */
export const changeOrderStatus = staffAction<StatusChanged>(["KITCHEN"], async (caller, form, app) => {
  const id = String(form.get("id") ?? "");
  const status = String(form.get("status") ?? "");
  const order = await app.orders.changeStatus(caller.tenant, id, { status });
  refresh();
  return { id: order.id, number: order.number, status: order.status };
});
