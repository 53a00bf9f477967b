"use client";

import { useTranslations } from "next-intl";
import { isFreshReady } from "@/lib/core/board";
import { ageLevel, type AgeLevel } from "@/lib/core/kitchen";
import { Icon, type IconName } from "@/app/_components/icon";
import type { KitchenFloor, KitchenOrder } from "./types";

const minutesSince = (iso: string, now: number) => Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));

const LOOK: Record<AgeLevel, { icon: IconName; text: string }> = {
  fresh: { icon: "clock", text: "text-slate-700" },
  slow: { icon: "hourglass", text: "px-2 bg-amber-100 text-amber-950 ring-2 ring-amber-500" },
  late: { icon: "late", text: "px-2 bg-red-700 text-white" },
};

/** How long an order has waited (to be prepared) or has been ready: words, an icon and a colour. */
export function OrderAge({ order, now, floor }: { order: KitchenOrder; now: number; floor: KitchenFloor }) {
  const t = useTranslations("kitchen.age");
  if (order.status === "READY" && order.readyAt) {
    const minutes = minutesSince(order.readyAt, now);
    return (
      <p data-testid="order-age" className="inline-flex items-center gap-1.5 py-0.5 text-base font-semibold text-emerald-900">
        <Icon name="check" />
        {minutes < 1 ? t("readyJustNow") : t("ready", { minutes })}
      </p>
    );
  }
  const minutes = minutesSince(order.createdAt, now);
  const level = ageLevel(now - Date.parse(order.createdAt), floor);
  const look = LOOK[level];
  return (
    <p data-testid="order-age" data-level={level} className={`inline-flex items-center gap-1.5 rounded-md py-0.5 text-base font-bold ${look.text}`}>
      <Icon name={look.icon} />
      {level === "fresh" ? (minutes < 1 ? t("new") : t("fresh", { minutes })) : t(level, { minutes })}
    </p>
  );
}

/** The card's border: the same level, for the glance across the room (a ready order off the board: dashed). */
export function ageBorder(order: KitchenOrder, now: number, floor: KitchenFloor): string {
  if (order.status === "READY") return isFreshReady(order, now, floor.readyClearMinutes) ? "border-emerald-600" : "border-dashed border-slate-500";
  const level = ageLevel(now - Date.parse(order.createdAt), floor);
  return level === "late" ? "border-red-600 ring-2 ring-red-600" : level === "slow" ? "border-amber-500 ring-2 ring-amber-500" : "border-slate-300";
}

/** A ticket's top band: the same level as a colour behind the number, readable across the kitchen. */
export const AGE_BAND: Record<AgeLevel, string> = {
  fresh: "bg-slate-100 text-slate-900",
  slow: "bg-amber-300 text-amber-950",
  late: "bg-red-700 text-white",
};

export const ageLevelOf = (order: KitchenOrder, now: number, floor: KitchenFloor): AgeLevel => ageLevel(now - Date.parse(order.createdAt), floor);

/**
 * The age on a narrow ticket: icon and minutes; the band's colour and the icon carry the
 * level, its word is there for screen readers (the text reads as on the wide card).
 */
export function TicketAge({ order, now, floor }: { order: KitchenOrder; now: number; floor: KitchenFloor }) {
  const t = useTranslations("kitchen.age");
  const minutes = minutesSince(order.createdAt, now);
  const level = ageLevelOf(order, now, floor);
  return (
    <p data-testid="order-age" data-level={level} className="inline-flex items-center gap-1 text-lg leading-none font-black whitespace-nowrap tabular-nums">
      <Icon name={LOOK[level].icon} />
      {level === "fresh" ? null : <span className="sr-only">{t(level === "late" ? "lateWord" : "slowWord")} </span>}
      {level === "fresh" && minutes < 1 ? t("new") : t("minutes", { minutes })}
    </p>
  );
}
