"use client";

import { ItemList } from "@/app/_components/item-list";
import { useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { previousStep, type OrderStatus } from "@/lib/core/orders";
import { FormError } from "@/app/_components/form-error";
import { callOrderAgain, changeOrderStatus, type StatusChanged } from "./actions";
import { BUTTON, usedKeyboard } from "./buttons";
import { Icon } from "@/app/_components/icon";
import { OrderAge, ageBorder } from "./order-age";
import type { KitchenFloor, KitchenOrder } from "./types";
import { useOrderAction } from "./use-order-action";

/** A card in a grid (to prepare: what to cook matters) or a row (ready: what to do matters). */
const LAYOUT = {
  card: {
    article: "flex flex-col p-3",
    head: "flex items-start justify-between gap-2",
    body: "mt-1.5",
    items: "mt-1.5 space-y-0.5 text-lg leading-snug",
    actions: "mt-auto pt-3",
    buttons: "grid grid-cols-2 gap-2",
    confirm: "space-y-2",
  },
  row: {
    article: "grid grid-cols-[minmax(4.5rem,auto)_1fr_auto] items-center gap-x-4 px-3 py-2",
    head: "",
    body: "min-w-0",
    items: "flex flex-wrap gap-x-4 text-lg leading-snug",
    actions: "",
    buttons: "grid grid-cols-[repeat(4,auto)] gap-2",
    confirm: "flex max-w-xl items-center gap-3",
  },
} as const;

export interface CardCallbacks {
  /** A status changed: announce it; `refocus` when the user works with the keyboard (the card is about to move). */
  onMoved: (order: StatusChanged, refocus: boolean) => void;
  onCalled: (order: StatusChanged) => void;
}

/** One open order: what to cook, how long it has waited, and the kitchen's buttons for it. */
export function OrderCard({
  slug,
  order,
  currentShift,
  now,
  floor,
  layout,
  onMoved,
  onCalled,
}: { slug: string; order: KitchenOrder; currentShift: number; now: number; floor: KitchenFloor; layout: keyof typeof LAYOUT } & CardCallbacks) {
  const t = useTranslations("kitchen");
  const { run, pending, error } = useOrderAction(slug);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const earlier = order.shift < currentShift;
  const headingId = `order-${order.id}`;

  function move(status: OrderStatus, trigger: Element | null) {
    const refocus = usedKeyboard(trigger);
    setConfirmCancel(false);
    run(changeOrderStatus, { id: order.id, status }, (data) => onMoved(data, refocus));
  }

  function keepOrder() {
    setConfirmCancel(false);
    requestAnimationFrame(() => cancelButton.current?.focus());
  }

  const back = previousStep(order.status);
  const look = LAYOUT[layout];

  return (
    <article
      // Numbers restart each shift: orders still open from an earlier shift get a distinct id.
      data-testid={earlier ? `order-s${order.shift}-${order.number}` : `order-${order.number}`}
      aria-labelledby={headingId}
      aria-busy={pending || undefined}
      className={`rounded-2xl border-2 bg-white shadow-sm ${look.article} ${ageBorder(order, now, floor)}`}
    >
      <div className={look.head}>
        <div className="flex items-center gap-2">
          <h3
            id={headingId}
            aria-label={earlier ? t("orderOfShift", { number: order.number, shift: order.shift }) : t("order", { number: order.number })}
            className="text-5xl leading-none font-black tabular-nums"
          >
            {order.number}
          </h3>
          {earlier ? (
            <span data-testid="order-shift" className="rounded-md bg-violet-700 px-2 py-0.5 text-sm font-bold whitespace-nowrap text-white">
              {t("shift", { shift: order.shift })}
            </span>
          ) : null}
        </div>
        {layout === "card" ? (
          // The ticket's time alone, as on a paper ticket: the card is narrow.
          <p className="text-base font-semibold whitespace-nowrap text-slate-600 tabular-nums">
            <span className="sr-only">{t("ordered", { time: order.orderedAt })}</span>
            <span aria-hidden="true">{order.orderedAt}</span>
          </p>
        ) : null}
      </div>

      <div className={look.body}>
        <div className="flex flex-wrap items-center gap-x-3">
          <OrderAge order={order} now={now} floor={floor} />
          {layout === "row" ? <p className="text-sm text-slate-600">{t("ordered", { time: order.orderedAt })}</p> : null}
        </div>
        {order.items.length > 0 ? (
          <ItemList items={order.items} className={look.items} rowClassName="gap-1.5" qtyClassName="font-bold" />
        ) : (
          <p className="mt-1 text-base text-slate-600">{t("noItems")}</p>
        )}
        {order.note ? <p className="mt-1 rounded-lg bg-amber-50 px-2 py-1 text-base font-medium text-amber-950">{t("note", { note: order.note })}</p> : null}
      </div>

      <FormError message={error} className="mt-2 px-2 py-1 text-base" />

      <div className={look.actions}>
        {confirmCancel ? (
          <div
            role="group"
            aria-label={t("confirmCancel.label", { number: order.number })}
            className={`rounded-xl border-2 border-red-700 bg-red-50 p-2 ${look.confirm}`}
          >
            <p className="text-base font-semibold text-red-900">{t("confirmCancel.text", { number: order.number })}</p>
            <div className="grid shrink-0 grid-cols-2 gap-2">
              <button type="button" disabled={pending} onClick={(e) => move("CANCELLED", e.currentTarget)} className={BUTTON.danger}>
                {t("confirmCancel.yes")}
              </button>
              <button type="button" autoFocus onClick={keepOrder} className={BUTTON.secondary}>
                {t("confirmCancel.keep")}
              </button>
            </div>
          </div>
        ) : (
          <div className={look.buttons}>
            {order.status === "PLACED" ? (
              <button type="button" disabled={pending} onClick={(e) => move("READY", e.currentTarget)} className={BUTTON.ready}>
                <Icon name="check" />
                {t("actions.ready")}
              </button>
            ) : (
              <>
                <button type="button" disabled={pending} onClick={(e) => move("COLLECTED", e.currentTarget)} className={BUTTON.collected}>
                  <Icon name="check" />
                  {t("actions.collected")}
                </button>
                <button type="button" disabled={pending} onClick={() => run(callOrderAgain, { id: order.id }, onCalled)} className={BUTTON.secondary}>
                  <Icon name="bell" />
                  {t("actions.callAgain")}
                </button>
                {back ? (
                  <button type="button" disabled={pending} onClick={(e) => move(back, e.currentTarget)} className={BUTTON.secondary}>
                    <Icon name="undo" />
                    {t("actions.undo")}
                  </button>
                ) : null}
              </>
            )}
            <button ref={cancelButton} type="button" disabled={pending} onClick={() => setConfirmCancel(true)} className={BUTTON.cancel}>
              {t("actions.cancel")}
            </button>
          </div>
        )}
      </div>
    </article>
  );
}
