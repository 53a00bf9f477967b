/** What the customer's page says about one order. Pure. */
import type { BusinessDay } from "./business-day";
import type { BoardOrder } from "./orders";

/**
 * The one sentence the page leads with: an open order of an earlier day is still on the floor, so still preparing or ready.
 * `unknown`: the restaurant no longer has the order (see `customerRead`); no order's status gives it.
 */
export type CustomerStage = "preparing" | "ready" | "collected" | "cancelled" | "cleared" | "unknown";

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

/**
 * What the page learns from reading its order again (on every reconnect): the order as it is
 * now (`fresh`); that the restaurant no longer has it (`unknown`: its database was restored
 * from a backup taken before the order, decision 0046 — the customer holds a ticket nobody
 * is preparing, and the last status the page showed, "Ready" even, is no longer true); or
 * nothing (`unchanged`: the read failed — offline, a restart — and the page keeps what it shows).
 */
export type CustomerRead = "fresh" | "unknown" | "unchanged";

export function customerRead(read: { ok: true } | { ok: false; code: string } | null | undefined): CustomerRead {
  if (read?.ok) return "fresh";
  return read?.code === "NOT_FOUND" ? "unknown" : "unchanged";
}
