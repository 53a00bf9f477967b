"use client";

import { useTranslations } from "next-intl";
import { FormError } from "@/app/_components/form-error";
import { Icon } from "@/app/_components/icon";
import { BUTTON } from "./buttons";
import { OrderSection } from "./order-section";
import type { StationDoneOrder } from "./types";
import { useStationMoves, type OnPartMoved } from "./use-station-moves";
import { itemsLine } from "./items-line";

/** How long a station's Done can still be undone from its screen, and how many are kept in sight. */
export const UNDO_MINUTES = 10;
const UNDO_ROWS = 12;

/** The station's latest Done orders still on the floor, newest first, within the undo window. */
export function recentlyDone(orders: readonly StationDoneOrder[], now: number): StationDoneOrder[] {
  return orders.filter((o) => now - Date.parse(o.partDoneAt) < UNDO_MINUTES * 60_000).slice(0, UNDO_ROWS);
}

/** "Done here": what this station finished lately, each with Undo (a bump by mistake is taken back). */
export function StationDoneList({
  slug,
  station,
  orders,
  selectedId,
  onPartMoved,
}: {
  slug: string;
  station: string;
  orders: readonly StationDoneOrder[];
  selectedId: string | null;
  onPartMoved: OnPartMoved;
}) {
  const t = useTranslations("kitchen.station");
  return (
    <OrderSection
      id="done-here"
      title={t("doneHere")}
      count={orders.length}
      empty={t("doneHereEmpty")}
      hint={t("doneHereHint", { minutes: UNDO_MINUTES })}
      layout="rows"
      className="flex-1"
    >
      {orders.map((o) => (
        <DoneRow key={o.id} slug={slug} station={station} order={o} selected={o.id === selectedId} onPartMoved={onPartMoved} />
      ))}
    </OrderSection>
  );
}

function DoneRow({
  slug,
  station,
  order,
  selected,
  onPartMoved,
}: {
  slug: string;
  station: string;
  order: StationDoneOrder;
  selected: boolean;
  onPartMoved: OnPartMoved;
}) {
  const t = useTranslations("kitchen");
  const { undo, pending, error } = useStationMoves(slug, station, onPartMoved);
  const waiting = (order.stations ?? []).filter((p) => p.doneAt === null).map((p) => p.name);
  // Ready; still waiting for another station; or, in expo mode, every part done and waiting for the pass's bump.
  const state =
    order.status === "READY" ? t("status.READY") : waiting.length > 0 ? t("station.waitingFor", { stations: waiting.join(", ") }) : t("station.waitingExpo");
  const items = itemsLine(order.items);
  return (
    <article
      data-testid={`done-${order.display}`}
      data-order-id={order.id}
      aria-labelledby={`done-heading-${order.id}`}
      aria-current={selected || undefined}
      aria-busy={pending || undefined}
      className={`rounded-xl border-2 border-slate-300 px-2 py-1 ${selected ? "bg-blue-50 outline-4 outline-blue-600" : "bg-white"}`}
    >
      <div className="flex items-center gap-2">
        <h3 id={`done-heading-${order.id}`} className="text-3xl leading-none font-black tabular-nums">
          {order.display}
        </h3>
        <div className="min-w-0 flex-1 text-sm leading-tight">
          <p className="font-semibold text-emerald-900 tabular-nums">
            <Icon name="check" className="inline size-4" /> {order.partDoneTime}
          </p>
          {state ? <p className={`truncate font-bold ${order.status === "READY" ? "text-emerald-800" : "text-amber-900"}`}>{state}</p> : null}
        </div>
        <button
          type="button"
          disabled={pending}
          onClick={(e) => undo(order.id, e.currentTarget)}
          aria-label={t("station.undoLabel", { number: order.display })}
          className={BUTTON.secondary}
        >
          <Icon name="undo" className="size-4" />
          {t("actions.undo")}
        </button>
      </div>
      {items ? <p className="truncate text-sm text-slate-700">{items}</p> : null}
      <FormError message={error} className="mt-1 px-2 py-1 text-sm" />
    </article>
  );
}
