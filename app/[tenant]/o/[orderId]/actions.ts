"use server";

import { z } from "zod";
import { publicAction } from "@/lib/edges/next/validated-action.server";
import { customerOrder, type CustomerOrder } from "./order-data.server";

/** The customer's order again, after a reconnect or a new shift. Public: the id is the ticket. */
export const readOrder = publicAction(
  (t) => z.object({ orderId: z.string({ error: t("common.errors.NOT_FOUND") }).max(64) }),
  ({ orderId }, { app, tenant }): Promise<CustomerOrder> => customerOrder(app, tenant, orderId),
);
