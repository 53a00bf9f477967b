/**
 * Rules of the kitchen screen that do not depend on the screen: how late an order is,
 * which open order a typed number means. Pure.
 */
import type { FloorSettings } from "./tenants";
import type { Order } from "./orders";

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
 * The order a cook means by typing `number`: among the open orders of the day, the one of
 * the current shift; else the only one of an earlier shift; else it is ambiguous (the
 * screen asks which) or unknown.
 */
export function matchTypedNumber(open: readonly Order[], number: number, currentShift: number): NumberMatch {
  const same = open.filter((o) => o.number === number);
  const current = same.find((o) => o.shift === currentShift);
  if (current) return { kind: "one", order: current };
  if (same.length === 1) return { kind: "one", order: same[0]! };
  if (same.length === 0) return { kind: "none" };
  return { kind: "several", orders: [...same].sort((a, b) => b.shift - a.shift) };
}
