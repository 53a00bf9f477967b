/** What the customer's page says about one order. Pure. */
import type { BusinessDay } from "./business-day";
import type { BoardOrder } from "./orders";

/** The one sentence the page leads with: an open order of an earlier day is still on the floor, so still preparing or ready. */
export type CustomerStage = "preparing" | "ready" | "collected" | "cancelled" | "cleared";

export function customerStage(o: Pick<BoardOrder, "status" | "cleared">): CustomerStage {
  if (o.status === "CANCELLED") return "cancelled";
  if (o.status === "COLLECTED") return "collected";
  if (o.cleared) return "cleared";
  return o.status === "READY" ? "ready" : "preparing";
}

/** An order taken on an earlier business day than `today`: the page says on which. */
export function isOfEarlierDay(o: Pick<BoardOrder, "businessDay">, today: BusinessDay): boolean {
  return o.businessDay < today;
}
