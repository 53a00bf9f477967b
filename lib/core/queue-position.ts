/**
 * "3 ahead of you": how many orders of the restaurant are still being prepared that were
 * taken before this one. The customer's page keeps the set of those orders' keys and
 * updates it from the board's live events, so the count moves without a reload. Pure.
 */
import type { BoardOrder } from "./orders";

type Placed = Pick<BoardOrder, "key" | "createdAt" | "status" | "cleared" | "businessDay" | "shift" | "number">;

/** Taken before `mine`: earlier creation time, ties broken by shift then number. */
export function takenBefore(other: Placed, mine: Placed): boolean {
  if (other.businessDay !== mine.businessDay) return other.businessDay < mine.businessDay;
  return other.createdAt < mine.createdAt || (other.createdAt === mine.createdAt && (other.shift - mine.shift || other.number - mine.number) < 0);
}

/** Counts as ahead: taken before mine and still being prepared (not cleared). */
export function isAhead(other: Placed, mine: Placed): boolean {
  return other.key !== mine.key && other.status === "PLACED" && !other.cleared && takenBefore(other, mine);
}

/** The keys of the orders ahead of `mine` among `orders`. */
export function aheadKeys(orders: readonly Placed[], mine: Placed): string[] {
  return orders.filter((o) => isAhead(o, mine)).map((o) => o.key);
}

/** The set after one live event about `other`. Returns the same set when nothing changed. */
export function applyAhead(ahead: ReadonlySet<string>, other: Placed, mine: Placed): ReadonlySet<string> {
  const should = isAhead(other, mine);
  if (should === ahead.has(other.key)) return ahead;
  const next = new Set(ahead);
  if (should) next.add(other.key);
  else next.delete(other.key);
  return next;
}
