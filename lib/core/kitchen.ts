/**
 * Rules of the kitchen screen that do not depend on the screen: how late an order is,
 * which open order a typed number (`K12`, `12`) means. Pure.
 */
import type { FloorSettings } from "./tenants";
import type { Order, OrderStatus } from "./orders";
import type { BusinessDay } from "./business-day";
import { displayNumber, matchTyped, seriesNameOf } from "./series";

export type AgeLevel = "fresh" | "slow" | "late";

/** How long an order has waited, against the restaurant's thresholds. */
export function ageLevel(waitedMs: number, floor: Pick<FloorSettings, "ageWarnMinutes" | "ageLateMinutes">): AgeLevel {
  const minutes = waitedMs / 60_000;
  if (minutes >= floor.ageLateMinutes) return "late";
  if (minutes >= floor.ageWarnMinutes) return "slow";
  return "fresh";
}

export type NumberMatch =
  | { kind: "one"; order: Order }
  /** `unknownPrefix`: the letters typed are no series' and no open order's (a typo, not a number that is done). */
  | { kind: "none"; unknownPrefix: boolean }
  | { kind: "several"; orders: Order[] };

/**
 * The order a cook means by typing `K12`, `k12` or `12` (parseTypedNumber). Letters name
 * that series' order. Digits alone name the order without letters (12, not K12 or D12);
 * only when no such order is open do they mean a lettered one, if exactly one shows them.
 * A choice is left only when several lettered orders show the digits and none without
 * letters does (K12 and D12): the screen asks, never picks. Orders showing the same
 * number can only be twins from before decision 0027: the one of today's current shift
 * wins, else they are asked too.
 * `prefixes`: the letters the restaurant's series use, to tell a typo from a done order.
 */
export function matchTypedNumber(
  open: readonly Order[],
  typed: { prefix: string | null; number: number },
  current: { businessDay: BusinessDay; shift: number },
  prefixes: readonly string[] = [],
): NumberMatch {
  const showing = matchTyped(typed, open);
  if (showing.length === 0) {
    const known = typed.prefix === null || prefixes.includes(typed.prefix) || open.some((o) => o.prefix === typed.prefix);
    return { kind: "none", unknownPrefix: !known };
  }
  const plain = typed.prefix === null ? showing.filter((o) => o.prefix === "") : [];
  const same = plain.length > 0 ? plain : showing;
  if (same.length === 1) return { kind: "one", order: same[0]! };
  const oneDisplay = same.every((o) => o.prefix === same[0]!.prefix);
  const now = oneDisplay ? same.find((o) => o.businessDay === current.businessDay && o.shift === current.shift) : undefined;
  if (now) return { kind: "one", order: now };
  // By letters, then a display's twins newest first.
  const orders = [...same].sort((a, b) => a.prefix.localeCompare(b.prefix, "en") || b.businessDay.localeCompare(a.businessDay) || b.shift - a.shift);
  return { kind: "several", orders };
}

/** An order a typed number may mean, as the 409 of an ambiguous one lists it. */
export interface TypedCandidate {
  id: string;
  display: string;
  prefix: string;
  number: number;
  series: string;
  businessDay: string;
  shift: number;
  status: OrderStatus;
}

export const typedCandidate = (o: Order): TypedCandidate => ({
  id: o.id,
  display: displayNumber(o.prefix, o.number),
  prefix: o.prefix,
  number: o.number,
  series: seriesNameOf(o),
  businessDay: o.businessDay,
  shift: o.shift,
  status: o.status,
});
