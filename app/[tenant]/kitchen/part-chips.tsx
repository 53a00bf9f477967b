"use client";

import { useTranslations } from "next-intl";
import { Icon } from "@/app/_components/icon";
import type { ReadyWhen } from "@/lib/core/stations";
import type { KitchenOrder } from "./types";

const CHIP = "inline-flex h-5 min-w-0 items-center gap-0.5 rounded-md px-1 text-sm leading-none font-bold whitespace-nowrap";

/**
 * Which station still works on an order (issue #40): one chip per part, "Grill ✓" (with its
 * time, 12:03, on a wide screen) or "Bar ⌛". In expo mode an order whose parts are all done waits for the bump, and says so.
 */
export function PartChips({ order, readyWhen, className = "" }: { order: KitchenOrder; readyWhen: ReadyWhen; className?: string }) {
  const t = useTranslations("kitchen.parts");
  const parts = order.stations ?? [];
  if (parts.length === 0) return null;
  if (readyWhen === "expo" && order.status === "PLACED" && parts.every((p) => p.doneAt !== null)) {
    return (
      // Short enough for a ticket's width at 1280 px; the whole sentence for a screen reader and on hover.
      <p data-testid="parts-all-done" title={t("allDoneLong")} className={`${CHIP} w-full bg-emerald-700 text-white ${className}`}>
        <Icon name="check" className="size-4 shrink-0" />
        <span aria-hidden className="truncate">
          {t("allDone")}
        </span>
        <span className="sr-only">{t("allDoneLong")}</span>
      </p>
    );
  }
  return (
    <ul aria-label={t("label")} data-testid="parts" className={`flex min-w-0 gap-1 overflow-hidden ${className}`}>
      {parts.map((p) => (
        <li
          key={p.id}
          data-testid="part"
          data-done={p.doneAt !== null}
          title={p.doneTime ? t("doneAt", { time: p.doneTime }) : undefined}
          // A station still working never shrinks out of sight; a done one gives way first.
          className={`${CHIP} ${p.doneAt ? "shrink bg-emerald-100 text-emerald-950" : "shrink-0 border-2 border-amber-600 bg-amber-50 text-amber-950"}`}
        >
          <span data-testid="part-name" className="min-w-0 truncate">
            {p.name}
          </span>
          {p.doneTime ? (
            <>
              <Icon name="check" className="size-3.5 shrink-0" />
              <span className="sr-only">, {t("doneAt", { time: p.doneTime })}</span>
              {/* The time where tickets are wide enough (a TV); the tooltip and screen readers have it everywhere. */}
              <span aria-hidden="true" className="hidden font-semibold tabular-nums 2xl:inline">
                {p.doneTime}
              </span>
            </>
          ) : (
            <>
              <Icon name="hourglass" className="size-3.5 shrink-0" />
              <span className="sr-only">, {t("working")}</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
