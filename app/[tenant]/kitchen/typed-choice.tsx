"use client";

import { useTranslations } from "next-intl";
import type { TicketMarks } from "@/lib/core/ticket";
import { Icon } from "@/app/_components/icon";
import { BUTTON } from "./buttons";
import type { KitchenOrder } from "./types";

/** A typed number that more than one open order shows: the ids the server listed, and what was typed. */
export interface TypedChoiceState {
  display: string;
  ids: string[];
}

/**
 * "12 matches 2 open orders": one button per order (its number, status, shift and first
 * dish, as the screen has them now), and Close. Nothing moves until the cook taps one —
 * the typed field keeps focus, so an Enter out of habit never picks for them.
 */
export function TypedChoice({
  choice,
  open,
  marks,
  pending,
  onPick,
  onClose,
}: {
  choice: TypedChoiceState;
  open: readonly KitchenOrder[];
  marks: (o: KitchenOrder) => TicketMarks;
  pending: boolean;
  onPick: (order: KitchenOrder, trigger: Element) => void;
  onClose: () => void;
}) {
  const t = useTranslations("kitchen");
  // Read live: an order someone else moved shows its new status; one that left the floor is no longer offered.
  const orders = choice.ids.flatMap((id) => open.filter((o) => o.id === id));
  if (orders.length === 0) return null;
  const lettered = orders.find((o) => o.display !== choice.display);
  const text = lettered
    ? t("typed.severalLetters", { display: choice.display, count: orders.length, example: lettered.display })
    : t("typed.several", { display: choice.display, count: orders.length });
  return (
    <div
      role="group"
      aria-labelledby="typed-choice-text"
      data-testid="typed-choice"
      className="flex basis-full flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border-2 border-amber-600 bg-amber-50 px-2 py-1"
    >
      <p id="typed-choice-text" role="alert" className="text-lg leading-tight font-bold text-amber-950">
        {text}
      </p>
      <div className="flex flex-1 flex-wrap items-stretch gap-2">
        {orders.map((o) => {
          const m = marks(o);
          const facts = [
            t(`status.${o.status}`),
            m.earlierDay ? t("earlierDay") : m.earlierShift ? t("shift", { shift: o.shift }) : null,
            o.items[0]?.name ?? null,
          ].filter((f): f is string => !!f);
          return (
            <button
              key={o.id}
              type="button"
              disabled={pending}
              data-testid={`typed-choice-${o.id}`}
              onClick={(e) => onPick(o, e.currentTarget)}
              className={`${BUTTON.secondary} max-w-80 border-amber-700 py-0.5`}
            >
              <span className="text-2xl leading-none font-black tabular-nums">{o.display}</span>
              {/* A space for the button's name ("K12 Ready · …"); a flex box lays out none. */}{" "}
              <span className="truncate text-left text-sm font-semibold">{facts.join(" · ")}</span>
            </button>
          );
        })}
        <button type="button" onClick={onClose} aria-label={t("typed.close")} title={t("typed.close")} className={`${BUTTON.secondary} ml-auto w-9`}>
          <Icon name="cross" />
        </button>
      </div>
    </div>
  );
}
