"use client";

import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useLocale, useTranslations } from "next-intl";
import { unitPrice, type OptionGroup } from "@/lib/core/menu-options";
import { formatMoney } from "@/lib/core/money";
import { ORDER_LIMITS } from "@/lib/core/orders";
import { missingGroups, type KioskDish, type Picked } from "./kiosk-lines";

const single = (g: OptionGroup) => g.max === 1;

/**
 * A dish's options, its note and how many, in a modal dialog (focus stays in it): one tap per
 * group, then Add. Keys: 1–9 choose in the focused group (a one-choice group then moves on to
 * the next), arrows move within a group, Tab to the next group, + / − the quantity, Enter
 * adds, Esc cancels.
 */
export function OptionChooser({
  dish,
  currency,
  editing,
  onDone,
  onRemove,
  onCancel,
}: {
  dish: KioskDish;
  currency: string | null;
  /** The line being edited; null: a new line. */
  editing: Picked | null;
  onDone: (line: Picked) => void;
  /** Editing only: the line leaves the order. */
  onRemove: (() => void) | null;
  onCancel: () => void;
}) {
  const t = useTranslations("kiosk.chooser");
  const locale = useLocale();
  const ref = useRef<HTMLDialogElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const { groups } = dish;
  const offered = new Set(groups.flatMap((g) => g.options.map((o) => o.id)));
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set((editing?.options ?? []).map((o) => o.id).filter((id) => offered.has(id))));
  const [qty, setQty] = useState(editing?.qty ?? 1);
  const [note, setNote] = useState(editing?.note ?? "");
  const [tried, setTried] = useState(false);

  const picked = groups.flatMap((g) => g.options.filter((o) => chosen.has(o.id)).map((o) => ({ ...o, group: g.name })));
  const unit = unitPrice(dish.priceCents, picked);
  const missing = missingGroups(groups, chosen);
  const money = (cents: number) => formatMoney(cents, locale, currency);

  /** Where focus enters the dialog: the first group's choice (or first option), else the note. */
  const firstStop = (): HTMLElement | null =>
    ref.current?.querySelector<HTMLInputElement>('[data-group="0"] input:checked') ??
    ref.current?.querySelector<HTMLInputElement>('[data-group="0"] input') ??
    ref.current?.querySelector<HTMLInputElement>("#chooser-note") ??
    null;

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    firstStop()?.focus();
    return () => {
      dialog?.close();
      // Back where the cashier was (the dish's button, the line's Edit), if it is still there.
      if (opener?.isConnected) opener.focus();
    };
    // Once per opening: the dialog is mounted per dish.
  }, []);

  function toggle(g: OptionGroup, id: string) {
    setChosen((now) => {
      const next = new Set(now);
      if (next.has(id)) {
        // A required one-choice group keeps its choice: another tap changes it, none clears it.
        if (!(single(g) && g.min > 0)) next.delete(id);
        return next;
      }
      if (single(g)) for (const o of g.options) next.delete(o.id);
      else if (g.options.filter((o) => next.has(o.id)).length >= g.max) return now;
      next.add(id);
      return next;
    });
  }

  function done() {
    if (missing.length > 0) {
      setTried(true);
      ref.current?.querySelector<HTMLInputElement>(`[data-group="${groups.indexOf(missing[0]!)}"] input`)?.focus();
      return;
    }
    onDone({ id: dish.id, name: dish.name, qty, options: picked.map((o) => ({ id: o.id, name: o.name })), note: note.trim() });
  }

  const stepQty = (delta: number) => setQty((q) => Math.min(ORDER_LIMITS.qty, Math.max(1, q + delta)));

  function onKey(e: KeyboardEvent<HTMLDialogElement>) {
    // The kiosk's own keys (Ctrl+Enter takes the order) wait until the dialog is closed.
    e.stopPropagation();
    if (e.nativeEvent.isComposing) return;
    const target = e.target as HTMLElement;
    const typing = target instanceof HTMLInputElement && target.type === "text";
    const groupEl = target.closest<HTMLElement>("[data-group]");
    const gi = groupEl ? Number(groupEl.dataset.group) : -1;
    if (e.key === "Escape") {
      e.preventDefault();
      onCancel();
    } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey || !(target instanceof HTMLButtonElement))) {
      e.preventDefault();
      done();
    } else if (e.key === "Tab" && !e.shiftKey && target === addRef.current) {
      e.preventDefault();
      firstStop()?.focus();
    } else if (e.key === "Tab" && e.shiftKey && target === firstStop()) {
      e.preventDefault();
      addRef.current?.focus();
    } else if (!typing && /^[1-9]$/.test(e.key)) {
      const g = groups[Math.max(gi, 0)];
      const o = g?.options[Number(e.key) - 1];
      if (!g || !o) return;
      e.preventDefault();
      toggle(g, o.id);
      const inputs = (n: number) => ref.current?.querySelectorAll<HTMLInputElement>(`[data-group="${n}"] input`);
      // A one-choice group is answered: on to the next group (or the note); several choices stay put.
      if (single(g)) (inputs(groups.indexOf(g) + 1)?.[0] ?? ref.current?.querySelector<HTMLInputElement>("#chooser-note"))?.focus();
      else inputs(groups.indexOf(g))?.[Number(e.key) - 1]?.focus();
    } else if (!typing && (e.key === "+" || e.key === "-")) {
      e.preventDefault();
      stepQty(e.key === "+" ? 1 : -1);
    } else if (gi >= 0 && !single(groups[gi]!) && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key)) {
      // Checkboxes have no arrow keys of their own: the same moves as the one-choice groups' radios.
      const inputs = [...(groupEl?.querySelectorAll<HTMLInputElement>("input") ?? [])];
      const at = inputs.indexOf(target as HTMLInputElement);
      const step = e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 1;
      e.preventDefault();
      inputs[(at + step + inputs.length) % inputs.length]?.focus();
    }
  }

  const rule = (g: OptionGroup) =>
    g.min > 0
      ? g.max === 1
        ? t("chooseOne")
        : t("chooseRange", { min: g.min, max: g.max })
      : g.max === 1
        ? t("optionalOne")
        : g.max >= g.options.length
          ? t("optionalAny")
          : t("optionalUpTo", { max: g.max });

  return (
    // Esc is handled with the other keys; the dialog's own cancel (a close request) does the same.
    <dialog
      ref={ref}
      aria-labelledby="chooser-title"
      data-testid="option-chooser"
      onKeyDown={onKey}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      className="m-auto max-h-[calc(100dvh-1.5rem)] w-[min(60rem,calc(100vw-1.5rem))] overflow-y-auto rounded-2xl bg-white p-5 text-slate-900 shadow-2xl backdrop:bg-slate-900/60"
    >
      <div className="mb-3 flex items-baseline justify-between gap-4">
        <h2 id="chooser-title" className="text-3xl font-extrabold break-words">
          {dish.name}
        </h2>
        {dish.priceCents !== null ? <span className="text-xl text-slate-700 tabular-nums">{money(dish.priceCents)}</span> : null}
      </div>
      <div className="space-y-3">
        {groups.map((g, gi) => {
          const short = tried && missing.includes(g);
          const count = g.options.filter((o) => chosen.has(o.id)).length;
          const isFull = (id: string) => !chosen.has(id) && !single(g) && count >= g.max;
          const stop = g.options.findIndex((o) => !isFull(o.id));
          return (
            <fieldset key={g.id} data-group={gi} aria-describedby={short ? "chooser-missing" : undefined}>
              <legend className="mb-1 text-lg font-bold">
                {g.name} <span className={`text-base font-semibold ${short ? "text-red-800" : "text-slate-600"}`}>· {rule(g)}</span>
              </legend>
              <div className="grid grid-cols-4 gap-2">
                {g.options.map((o, oi) => {
                  const on = chosen.has(o.id);
                  const full = isFull(o.id);
                  return (
                    <label
                      key={o.id}
                      className={`flex min-h-14 cursor-pointer items-center gap-2 rounded-xl border-2 px-3 py-1 has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-blue-300 ${
                        on
                          ? "border-blue-800 bg-blue-700 text-white"
                          : full
                            ? "cursor-not-allowed border-slate-300 bg-slate-100 text-slate-500"
                            : "border-blue-700 bg-blue-50 hover:bg-blue-100"
                      } ${short ? "border-red-700" : ""}`}
                    >
                      <input
                        type={single(g) ? "radio" : "checkbox"}
                        name={`chooser-${g.id}`}
                        checked={on}
                        disabled={full}
                        // Like a one-choice group's radios, a group is one Tab stop: arrows move within it.
                        tabIndex={single(g) || oi === stop ? undefined : -1}
                        // The choice is made on click (a tap, Space, an arrow key), which also clears an optional one-choice group.
                        onChange={() => undefined}
                        onClick={() => toggle(g, o.id)}
                        className="sr-only"
                      />
                      {oi < 9 ? (
                        <kbd aria-hidden="true" className={`font-sans text-sm font-semibold ${on ? "text-blue-100" : "text-slate-500"}`}>
                          {oi + 1}
                        </kbd>
                      ) : null}
                      <span className="min-w-0 flex-1 leading-tight">
                        <span className="block text-lg font-bold break-words">{o.name}</span>
                        {o.priceCents > 0 ? <span className="block text-base tabular-nums">{t("extra", { price: money(o.priceCents) })}</span> : null}
                      </span>
                    </label>
                  );
                })}
              </div>
            </fieldset>
          );
        })}
        <div>
          <label htmlFor="chooser-note" className="mb-1 block text-lg font-bold">
            {t("note")} <span className="font-normal text-slate-600">{t("noteOptional")}</span>
          </label>
          <input
            id="chooser-note"
            type="text"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={ORDER_LIMITS.lineNote}
            autoComplete="off"
            enterKeyHint="done"
            placeholder={t("notePlaceholder")}
            className="w-full rounded-lg border-2 border-slate-400 px-3 py-2 text-xl focus:border-blue-700 focus:ring-4 focus:ring-blue-200 focus:outline-none"
          />
        </div>
        {tried && missing.length > 0 ? (
          <p
            id="chooser-missing"
            role="alert"
            data-testid="chooser-missing"
            className="rounded-lg bg-red-50 px-3 py-2 text-lg font-semibold text-red-800 ring-1 ring-red-300"
          >
            {t("missing", { groups: new Intl.ListFormat(locale, { type: "conjunction" }).format(missing.map((g) => g.name)) })}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <div className="flex items-center gap-1" role="group" aria-label={t("quantity")}>
            <button
              type="button"
              onClick={() => stepQty(-1)}
              aria-label={t("less")}
              className="size-12 rounded-lg border-2 border-slate-400 bg-slate-100 text-2xl font-bold hover:bg-slate-200 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
            >
              −
            </button>
            <output aria-label={t("quantity")} data-testid="chooser-qty" className="w-12 text-center text-2xl font-bold tabular-nums">
              {qty}
            </output>
            <button
              type="button"
              onClick={() => stepQty(1)}
              aria-label={t("more")}
              className="size-12 rounded-lg border-2 border-slate-400 bg-slate-100 text-2xl font-bold hover:bg-slate-200 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
            >
              +
            </button>
          </div>
          <div className="ml-auto flex flex-wrap items-center gap-3">
            {onRemove ? (
              <button
                type="button"
                onClick={onRemove}
                className="rounded-xl border-2 border-red-700 px-4 py-3 text-lg font-bold text-red-800 hover:bg-red-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-300"
              >
                {t("remove")}
              </button>
            ) : null}
            <button
              type="button"
              onClick={onCancel}
              className="rounded-xl border-2 border-slate-400 px-5 py-3 text-lg font-bold text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300"
            >
              {t("cancel")}
              <kbd aria-hidden="true" className="ml-2 font-sans text-sm font-semibold text-slate-500">
                Esc
              </kbd>
            </button>
            <button
              ref={addRef}
              type="button"
              onClick={done}
              data-testid="chooser-add"
              className="rounded-xl bg-emerald-700 px-6 py-3 text-xl font-extrabold text-white hover:bg-emerald-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-300"
            >
              {editing ? t("save") : t("add")}
              {unit !== null ? <span className="ml-2 tabular-nums">· {money(unit * qty)}</span> : null}
              <kbd aria-hidden="true" className="ml-2 rounded-md border border-white/60 px-1.5 font-sans text-sm font-semibold">
                Enter
              </kbd>
            </button>
          </div>
        </div>
        <p className="text-base text-slate-600">{t("keys")}</p>
      </div>
    </dialog>
  );
}
