"use client";

import { useLocale, useTranslations } from "next-intl";
import { formatMoney, type OrderTotal } from "@/lib/core/money";

/** "Total €37.50 · + 1 item without a price" under the order; nothing when no line has a price. */
export function OrderTotalLine({ total, currency }: { total: OrderTotal | null; currency: string | null }) {
  const t = useTranslations("kiosk");
  const locale = useLocale();
  if (!total) return null;
  return (
    <p data-testid="order-total" className="flex flex-wrap items-baseline justify-between gap-x-4 rounded-xl bg-white px-4 py-2 ring-1 ring-slate-300">
      <span className="text-xl font-bold">{t("total")}</span>
      {total.unpriced > 0 ? <span className="text-base text-slate-700">{t("totalUnpriced", { count: total.unpriced })}</span> : null}
      <span data-testid="order-total-amount" className="ml-auto text-3xl font-extrabold tabular-nums">
        {formatMoney(total.cents, locale, currency)}
      </span>
    </p>
  );
}
