"use client";

import { useEffect, useRef } from "react";
import { useTranslations } from "next-intl";
import { ItemList } from "@/app/_components/item-list";
import { BUTTON } from "./buttons";
import type { TicketMarks } from "@/lib/core/ticket";
import { OrderBadges } from "./order-badges";
import type { KitchenOrder } from "./types";

/** The whole ticket, opened over itself (as a KDS does): every item and the full note; Esc or Close folds it. */
export function TicketDetails({ id, order, marks, onClose }: { id: string; order: KitchenOrder; marks: TicketMarks; onClose: () => void }) {
  const t = useTranslations("kitchen");
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.scrollIntoView({ block: "nearest" });
    panel.current?.focus();
  }, []);
  return (
    <div
      ref={panel}
      id={id}
      role="region"
      tabIndex={-1}
      aria-label={t("ticket.details", { number: order.display })}
      data-testid="order-details"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        onClose();
      }}
      className="absolute inset-x-0 top-0 z-30 flex max-h-[min(28rem,70dvh)] min-h-full flex-col gap-1 overflow-y-auto rounded-xl border-2 border-slate-800 bg-white p-2 shadow-2xl focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500"
    >
      <div className="flex items-center justify-between gap-2">
        <p aria-hidden="true" className="text-4xl leading-none font-black tabular-nums">
          {order.display}
        </p>
        <button type="button" onClick={onClose} className={BUTTON.secondary}>
          {t("ticket.close")}
        </button>
      </div>
      <OrderBadges order={order} marks={marks} />
      <p className="text-sm text-slate-700">{t("ordered", { time: order.orderedAt })}</p>
      <ItemList
        items={order.items}
        className="space-y-0.5 text-base leading-snug font-semibold"
        rowClassName="gap-1.5"
        qtyClassName="font-black"
        noteClassName="font-semibold text-amber-900"
      />
      {order.note ? (
        <p className="rounded-sm border-l-4 border-amber-600 bg-amber-100 px-1.5 py-0.5 text-base font-bold break-words text-amber-950">
          {t("note", { note: order.note })}
        </p>
      ) : null}
    </div>
  );
}
