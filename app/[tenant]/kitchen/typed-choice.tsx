"use client";

import { useEffect, useRef, type KeyboardEvent, type RefObject } from "react";
import { useTranslations } from "next-intl";
import type { TicketMarks } from "@/lib/core/ticket";
import { Icon } from "@/app/_components/icon";
import { BUTTON, usedKeyboard } from "./buttons";
import { Kbd } from "./key-legend";
import type { KitchenOrder } from "./types";

/** A typed number that more than one open order shows: the ids the server listed, and what was typed. */
export interface TypedChoiceState {
  display: string;
  ids: string[];
}

/** Candidates with a key of their own: 1–9. */
const KEYED = 9;

/**
 * "Which 12?": one button per order (its key, number, status, shift and first dish, as the
 * screen has them now), and Close. Focus comes here, nothing highlighted: 1, 2… pick that
 * order; ↑/↓ highlight one and Enter picks it. Enter with nothing highlighted, Esc or Close
 * leave the question with nothing moved and focus back in the number field — an Enter out
 * of habit never moves an order the cook did not point at. Letters (and digits past the
 * last key) go to the number field: the cook types D12 instead.
 */
export function TypedChoice({
  choice,
  open,
  marks,
  pending,
  typedInput,
  onPick,
  onClose,
}: {
  choice: TypedChoiceState;
  open: readonly KitchenOrder[];
  marks: (o: KitchenOrder) => TicketMarks;
  pending: boolean;
  typedInput: RefObject<HTMLInputElement | null>;
  onPick: (order: KitchenOrder, trigger: Element) => void;
  onClose: () => void;
}) {
  const t = useTranslations("kitchen");
  const group = useRef<HTMLDivElement>(null);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  // Each new question takes focus, unless the cook is already typing the next number.
  useEffect(() => {
    const input = typedInput.current;
    if (document.activeElement === input && input?.value !== "") return;
    group.current?.focus();
  }, [choice, typedInput]);

  // Read live: an order someone else moved shows its new status; one that left the floor is no longer offered.
  const orders = choice.ids.flatMap((id) => open.filter((o) => o.id === id));
  if (orders.length === 0) return null;

  function leave() {
    onClose();
    typedInput.current?.focus();
  }

  function pick(i: number) {
    const button = buttons.current[i];
    if (pending || !button) return;
    button.focus();
    onPick(orders[i]!, button);
  }

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const at = buttons.current.findIndex((b) => b !== null && b === document.activeElement);
    const last = orders.length - 1;
    const key = Number(e.key);
    if (e.key === "ArrowDown" || e.key === "ArrowRight" || e.key === "ArrowUp" || e.key === "ArrowLeft") {
      e.preventDefault();
      const down = e.key === "ArrowDown" || e.key === "ArrowRight";
      const to = at < 0 ? (down ? 0 : last) : Math.min(last, Math.max(0, at + (down ? 1 : -1)));
      buttons.current[to]?.focus();
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (e.repeat) return;
      if (at >= 0) pick(at);
      else leave();
    } else if (e.key === "Escape") {
      e.preventDefault();
      leave();
    } else if (Number.isInteger(key) && key >= 1 && key <= Math.min(KEYED, orders.length) && !e.repeat) {
      e.preventDefault();
      pick(key - 1);
    } else if (/^[a-z0-9]$/i.test(e.key)) {
      // Focus moves before the key's character is typed: it lands in the number field.
      leave();
    }
  }

  const lettered = orders.find((o) => o.display !== choice.display);
  const text = lettered
    ? t("typed.severalLetters", { display: choice.display, count: orders.length, example: lettered.display })
    : t("typed.several", { display: choice.display, count: orders.length });
  return (
    <div
      ref={group}
      role="group"
      tabIndex={-1}
      aria-labelledby="typed-choice-text"
      aria-describedby="typed-choice-keys"
      data-testid="typed-choice"
      onKeyDown={onKeyDown}
      className="flex basis-full flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border-2 border-amber-600 bg-amber-50 px-2 py-1 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500"
    >
      <p id="typed-choice-text" role="alert" className="text-lg leading-tight font-bold text-amber-950">
        {text}
      </p>
      <div className="flex flex-1 flex-wrap items-stretch gap-2">
        {orders.map((o, i) => {
          const m = marks(o);
          const facts = [
            t(`status.${o.status}`),
            m.earlierDay ? t("earlierDay") : m.earlierShift ? t("shift", { shift: o.shift }) : null,
            o.items[0]?.name ?? null,
          ].filter((f): f is string => !!f);
          return (
            <button
              key={o.id}
              ref={(el) => {
                buttons.current[i] = el;
              }}
              type="button"
              aria-disabled={pending || undefined}
              aria-keyshortcuts={i < KEYED ? String(i + 1) : undefined}
              data-testid={`typed-choice-${o.id}`}
              onClick={() => pick(i)}
              className={`${BUTTON.secondary} max-w-80 border-amber-700 py-0.5 focus:bg-blue-50 focus:ring-4 focus:ring-blue-600 focus:ring-offset-2 aria-disabled:cursor-wait aria-disabled:opacity-60`}
            >
              {i < KEYED ? <Kbd hidden>{String(i + 1)}</Kbd> : null}
              <span className="text-2xl leading-none font-black tabular-nums">{o.display}</span>
              {/* A space for the button's name ("K12 Ready · …"); a flex box lays out none. */}{" "}
              <span className="truncate text-left text-sm font-semibold">{facts.join(" · ")}</span>
            </button>
          );
        })}
        <button
          type="button"
          onClick={(e) => (usedKeyboard(e.currentTarget) ? leave() : onClose())}
          aria-label={t("typed.close")}
          title={t("typed.close")}
          className={`${BUTTON.secondary} ml-auto w-9`}
        >
          <Icon name="cross" />
        </button>
      </div>
      <p id="typed-choice-keys" className="flex basis-full flex-wrap items-center gap-x-3 gap-y-0.5 text-sm text-amber-950">
        <span className="sr-only">{t("typed.keysSaid")}</span>
        <span aria-hidden="true" className="flex items-center gap-1">
          <Kbd>1</Kbd>
          {orders.length > 1 ? <Kbd>{String(Math.min(KEYED, orders.length))}</Kbd> : null}
          <span>{t("typed.keysNumber")}</span>
        </span>
        <span aria-hidden="true" className="flex items-center gap-1">
          <Kbd>↑</Kbd>
          <Kbd>↓</Kbd>
          <Kbd>⏎</Kbd>
          <span>{t("typed.keysArrows")}</span>
        </span>
        <span aria-hidden="true" className="flex items-center gap-1">
          <Kbd>Esc</Kbd>
          <span>{t("typed.keysBack")}</span>
        </span>
      </p>
    </div>
  );
}
