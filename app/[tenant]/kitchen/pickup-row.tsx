"use client";

import { useTranslations } from "next-intl";
import { previousStep } from "@/lib/core/orders";
import { FormError } from "@/app/_components/form-error";
import { Icon } from "@/app/_components/icon";
import { BUTTON } from "./buttons";
import { CancelConfirm } from "./cancel-confirm";
import { OrderAge, ageBorder } from "./order-age";
import type { TicketMarks } from "@/lib/core/ticket";
import { OrderBadges } from "./order-badges";
import { orderArticleProps, orderHeadingId, orderName } from "./order-label";
import type { KitchenFloor, KitchenOrder } from "./types";
import { useOrderMoves, type CardCallbacks } from "./use-order-moves";
import { itemsLine } from "./items-line";

/**
 * A ready order in the pickup column: what to do matters (hand out, call again), so the
 * row is compact; Call again, Undo and Cancel are icons with their names for assistive
 * technology and as a tooltip.
 */
export function PickupRow({
  slug,
  order,
  marks,
  now,
  floor,
  selected,
  ...callbacks
}: { slug: string; order: KitchenOrder; marks: TicketMarks; now: number; floor: KitchenFloor; selected: boolean } & CardCallbacks) {
  const t = useTranslations("kitchen");
  const { pending, error, confirmCancel, cancelButton, move, callAgain, askCancel, keepOrder } = useOrderMoves(slug, order.id, callbacks);
  const headingId = orderHeadingId(order);
  const back = previousStep(order.status);
  const items = itemsLine(order.items);

  return (
    <article
      {...orderArticleProps(order, marks, { selected, pending })}
      className={`rounded-xl border-2 px-2 py-1.5 ${ageBorder(order, now, floor)} ${selected ? "bg-blue-50 outline-4 outline-blue-600" : "bg-white"}`}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
        <h3 id={headingId} aria-label={orderName(t, order, marks)} className="text-3xl leading-none font-black tabular-nums">
          {order.display}
        </h3>
        <OrderAge order={order} now={now} floor={floor} />
        <OrderBadges order={order} marks={marks} />
      </div>
      {items ? <p className="mt-0.5 truncate text-sm text-slate-700">{items}</p> : null}
      {order.note ? <p className="truncate text-sm font-bold text-amber-950">{t("note", { note: order.note })}</p> : null}
      <p className="sr-only">{t("ordered", { time: order.orderedAt })}</p>
      <FormError message={error} className="mt-1 px-2 py-1 text-sm" />
      <div className="mt-1">
        {confirmCancel ? (
          <CancelConfirm
            number={order.display}
            pending={pending}
            onCancel={(trigger) => move("CANCELLED", trigger)}
            onKeep={keepOrder}
            className="space-y-1.5"
          />
        ) : (
          <div className="grid grid-cols-[1fr_repeat(3,2.5rem)] gap-1.5">
            <button type="button" disabled={pending} onClick={(e) => move("COLLECTED", e.currentTarget)} className={BUTTON.collected}>
              <Icon name="check" />
              {t("actions.collected")}
            </button>
            <button
              type="button"
              disabled={pending}
              onClick={callAgain}
              aria-label={t("actions.callAgain")}
              title={t("actions.callAgain")}
              className={BUTTON.secondary}
            >
              <Icon name="bell" />
            </button>
            {back ? (
              <button
                type="button"
                disabled={pending}
                onClick={(e) => move(back, e.currentTarget)}
                aria-label={t("actions.undo")}
                title={t("actions.undo")}
                className={BUTTON.secondary}
              >
                <Icon name="undo" />
              </button>
            ) : null}
            <button
              ref={cancelButton}
              type="button"
              disabled={pending}
              onClick={askCancel}
              aria-label={t("actions.cancel")}
              title={t("actions.cancelOrder", { number: order.display })}
              className={BUTTON.cancel}
            >
              <Icon name="cross" />
            </button>
          </div>
        )}
      </div>
    </article>
  );
}
