/**
 * Rules of the kitchen screen that do not depend on the screen: how late an order is,
 * which open order a typed number means. Pure.
 */
import type { FloorSettings } from "./tenants";
import type { Order } from "./orders";
import type { BusinessDay } from "./business-day";

export type AgeLevel = "fresh" | "slow" | "late";

/** How long an order has waited, against the restaurant's thresholds. */
export function ageLevel(waitedMs: number, floor: Pick<FloorSettings, "ageWarnMinutes" | "ageLateMinutes">): AgeLevel {
  const minutes = waitedMs / 60_000;
  if (minutes >= floor.ageLateMinutes) return "late";
  if (minutes >= floor.ageWarnMinutes) return "slow";
  return "fresh";
}

export type NumberMatch = { kind: "one"; order: Order } | { kind: "none" } | { kind: "several"; orders: Order[] };

/**
 * The order a cook means by typing `number`: among the open orders, the one of the current
 * shift of today; else the only one of an earlier shift or day; else it is ambiguous (the
 * screen asks which) or unknown.
 */
export function matchTypedNumber(open: readonly Order[], number: number, current: { businessDay: BusinessDay; shift: number }): NumberMatch {
  const same = open.filter((o) => o.number === number);
  const now = same.find((o) => o.businessDay === current.businessDay && o.shift === current.shift);
  if (now) return { kind: "one", order: now };
  if (same.length === 1) return { kind: "one", order: same[0]! };
  if (same.length === 0) return { kind: "none" };
  return { kind: "several", orders: [...same].sort((a, b) => b.businessDay.localeCompare(a.businessDay) || b.shift - a.shift) };
}
