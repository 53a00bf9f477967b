"use client";

import { useTranslations } from "next-intl";
import { FormError } from "@/app/_components/form-error";
import { changeOrderStatus } from "./actions";
import { BUTTON, usedKeyboard } from "./buttons";
import type { CardCallbacks } from "./use-order-moves";
import { Icon } from "@/app/_components/icon";
import type { CollectedOrder } from "./types";
import { useOrderAction } from "./use-order-action";

/** The last collected orders, most recent first: Undo recalls one tapped by mistake (back to Ready and to the board). */
export function CollectedList({
  slug,
  orders,
  currentShift,
  onMoved,
}: {
  slug: string;
  orders: CollectedOrder[];
  currentShift: number;
  onMoved: CardCallbacks["onMoved"];
}) {
  const t = useTranslations("kitchen");
  return (
    <section aria-labelledby="recently-collected" className="flex min-h-0 flex-col rounded-xl border-2 border-slate-300 bg-white">
      <h2 id="recently-collected" className="border-b-2 border-slate-200 px-2 py-1 text-lg leading-tight font-bold">
        {t("sections.collected")} <span className="text-slate-600">({orders.length})</span>
      </h2>
      {orders.length === 0 ? (
        <p className="p-2 text-base text-slate-600">{t("empty.collected")}</p>
      ) : (
        <ul className="min-h-0 divide-y divide-slate-200 overflow-y-auto">
          {orders.map((o) => (
            <CollectedRow key={o.id} slug={slug} order={o} earlier={o.shift < currentShift} onMoved={onMoved} />
          ))}
        </ul>
      )}
    </section>
  );
}

function CollectedRow({ slug, order, earlier, onMoved }: { slug: string; order: CollectedOrder; earlier: boolean; onMoved: CardCallbacks["onMoved"] }) {
  const t = useTranslations("kitchen");
  const { run, pending, error } = useOrderAction(slug);
  const label = earlier ? t("orderOfShift", { number: order.display, shift: order.shift }) : t("order", { number: order.display });
  return (
    <li data-testid={`collected-${order.display}`} aria-busy={pending || undefined} className="px-2 py-1">
      <div className="flex items-center gap-3">
        <span className="sr-only">
          {label},{" "}
          {order.collectedBy === null
            ? t("collectedAt", { time: order.collectedAt })
            : t("collectedAtBy", { time: order.collectedAt, name: order.collectedBy })}
        </span>
        <span aria-hidden="true" className="min-w-12 text-2xl font-black tabular-nums">
          {order.display}
        </span>
        {/* The heading says "collected": the row shows the time and who, to fit the narrow column. */}
        <div aria-hidden="true" className="min-w-0 flex-1 text-sm text-slate-700">
          <p className="tabular-nums">{order.collectedAt}</p>
          {order.collectedBy === null ? null : (
            <p className="truncate font-semibold" title={order.collectedBy} data-testid="collected-by">
              {order.collectedBy}
            </p>
          )}
          {earlier ? <p className="font-bold text-violet-800">{t("shift", { shift: order.shift })}</p> : null}
        </div>
        <button
          type="button"
          disabled={pending}
          onClick={(e) => {
            const refocus = usedKeyboard(e.currentTarget);
            run(changeOrderStatus, { id: order.id, status: "READY" }, (data) => onMoved(data, refocus));
          }}
          className={BUTTON.secondary}
        >
          <Icon name="undo" className="size-4" />
          {t("actions.undo")}
        </button>
      </div>
      <FormError message={error} className="mt-1 px-2 py-1 text-sm" />
    </li>
  );
}
