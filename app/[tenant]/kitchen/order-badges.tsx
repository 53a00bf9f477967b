"use client";

import { useTranslations } from "next-intl";
import { hasMarks, type TicketMarks } from "@/lib/core/ticket";
import { Icon } from "@/app/_components/icon";
import type { KitchenOrder } from "./types";

const BADGE = "inline-flex h-5 items-center gap-1 rounded-md px-1.5 text-sm leading-none font-bold whitespace-nowrap";
/** Delivery stands out (a driver waits on it); the other channels are outlined. */
const CHANNEL_LOOK = { delivery: "bg-sky-800 text-white", phone: "bg-teal-800 text-white" } as Record<string, string>;

/**
 * The badges, words and an icon each; nothing for a kiosk order of today's shift eaten in.
 * Take away comes first, loudest: whoever plates it must pack it instead.
 */
export function OrderBadges({ order, marks, className = "" }: { order: KitchenOrder; marks: TicketMarks; className?: string }) {
  const t = useTranslations("kitchen");
  const tc = useTranslations("common.service");
  if (!hasMarks(marks)) return null;
  const { channel } = marks;
  return (
    <p className={`flex min-w-0 flex-wrap items-center gap-1 ${className}`}>
      {marks.takeAway ? (
        <span data-testid="order-take-away" className={`${BADGE} bg-orange-600 tracking-wide text-black uppercase`}>
          <Icon name="takeAway" className="size-4" />
          {tc("takeAway")}
        </span>
      ) : null}
      {marks.earlierDay ? (
        <span data-testid="order-earlier-day" className={`${BADGE} bg-fuchsia-800 text-white`}>
          <Icon name="earlierDay" className="size-4" />
          {t("earlierDay")}
        </span>
      ) : null}
      {marks.earlierShift ? (
        <span data-testid="order-shift" className={`${BADGE} bg-violet-700 text-white`}>
          {t("shift", { shift: order.shift })}
        </span>
      ) : null}
      {channel ? (
        <span
          data-testid="order-channel"
          data-channel={channel.word}
          className={`${BADGE} ${CHANNEL_LOOK[channel.kind] ?? "border-2 border-slate-500 text-slate-900"}`}
        >
          <Icon name={channel.kind} className="size-4" />
          {channel.kind === "other" ? t("channel.other", { channel: channel.word }) : t(`channel.${channel.kind}`)}
        </span>
      ) : null}
    </p>
  );
}
