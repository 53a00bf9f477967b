/** What the customer's page says about one order. Pure. */
import type { BusinessDay } from "./business-day";
import type { BoardOrder } from "./orders";

/** The one sentence the page leads with. */
export type CustomerStage = "preparing" | "ready" | "collected" | "cancelled" | "cleared" | "pastDay";

export function customerStage(o: Pick<BoardOrder, "status" | "cleared" | "businessDay">, today: BusinessDay): CustomerStage {
  if (o.status === "CANCELLED") return "cancelled";
  if (o.status === "COLLECTED") return "collected";
  if (o.cleared) return "cleared";
  if (o.businessDay < today) return "pastDay";
  return o.status === "READY" ? "ready" : "preparing";
}
