"use client";

import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslations } from "next-intl";
import { callAction, NEW_BUILD } from "@/app/_lib/client-action";
import { useReloadHold } from "@/app/_lib/new-build";
import type { ActionState } from "@/lib/edges/next/validated-action.server";
import { ORDER_LIMITS } from "@/lib/core/orders";
import { kioskRefusal, type KioskIntent } from "@/lib/core/kiosk-order";
import { orderTotal } from "@/lib/core/money";
import { FormError } from "@/app/_components/form-error";
import { MenuPad } from "./menu-pad";
import { OrderList } from "./order-list";
import { OptionChooser } from "./option-chooser";
import { ServiceChoice, useServiceChoice } from "./service-choice";
import { addLine, addOne, dishesById, lineState, replaceLine, type KioskDish, type Picked } from "./kiosk-lines";
import { placeOrder, type IssuedTicket } from "./actions";
import type { KioskView } from "./kiosk-view.server";
import { ItemRows, type Row } from "./item-rows";
import { qrImage } from "./qr-image";
import { IssuedView } from "./issued-view";
import { OrderTotalLine } from "./order-total";
import { Reprint } from "./reprint";
import { NextNumber } from "./next-number";
import { useIsApple } from "./use-shortcut-label";
import type { Paper } from "./use-kiosk-device";
import type { KioskPrintingState } from "./use-kiosk-printing";
import { isBlank } from "./kiosk-draft";
import { useKioskDraft } from "./use-kiosk-draft";

/** A fresh idempotency key. crypto.randomUUID needs a secure context; tablets on plain http get the fallback. */
function newKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

type PlaceResult = ActionState<IssuedTicket>;

export interface KioskFormProps {
  slug: string;
  /** Names this signed-in device's draft (a hash of its orders' idempotency scope): a key replays only where it was made. */
  draftScope: string;
  /** The menu and the settings the kiosk uses, kept live by the screen. */
  view: KioskView;
  paper: Paper;
  /** The number series this device chose (its name); null: the kiosk channel's. */
  series: string | null;
  /** The network printer this device chose (its id); null: this screen's print dialog (or the restaurant's printer for the kiosk). */
  printer: string | null;
  /** This device's network printing: where its tickets are, and reprinting on the server. */
  printing: KioskPrintingState;
  /** The last ticket this device issued (kept across reloads), for "Reprint last ticket". */
  lastTicket: IssuedTicket | null;
  onIssued: (ticket: IssuedTicket) => void;
  /** The order was refused for the menu's sake (sold out meanwhile): read the menu again. */
  onStaleMenu: () => void;
}

export function KioskForm({ slug, draftScope, view, paper, series, printer, printing, lastTicket, onIssued, onStaleMenu }: KioskFormProps) {
  const t = useTranslations("kiosk");
  const tc = useTranslations("common.errors");
  const { menu, currency, numberOnly, askService, defaultService } = view;
  const hasMenu = menu.length > 0;
  // The free-text field suggests a dish of this restaurant's menu, never one of another kind of shop.
  const example = menu.flatMap((s) => s.items).find((i) => i.available)?.name ?? null;
  const apple = useIsApple();
  const shortcut = apple ? t("takeOrderShortcutMac") : t("takeOrderShortcut");
  const [picked, setPicked] = useState<Picked[]>([]);
  // Row ids only need to be unique within this form; the first is 0 on server and client alike.
  const rowIds = useRef(1);
  const newRow = (): Row => ({ id: rowIds.current++, name: "", qty: "1", note: "" });
  const [rows, setRows] = useState<Row[]>([{ id: 0, name: "", qty: "1", note: "" }]);
  const [note, setNote] = useState("");
  const { service, choose: chooseService, reset: resetService } = useServiceChoice(slug, askService, defaultService);
  // The options dialog: a dish tapped (index null) or line `index` being edited.
  const [choosing, setChoosing] = useState<{ dish: KioskDish; index: number | null } | null>(null);
  // One key per order form: a double tap or a retry after a lost answer gets the same number.
  // Set after mount so the server-rendered HTML and the browser agree.
  const [idempotencyKey, setIdempotencyKey] = useState("");
  const [dismissed, setDismissed] = useState<string | null>(null);
  // Refused on the screen (nothing sent, no number spent), for the form as it was then.
  const [refused, setRefused] = useState<{ message: string; form: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const takeRef = useRef<HTMLButtonElement>(null);
  // Set synchronously on submit: a double tap lands before `pending` re-renders.
  const submitting = useRef(false);

  // The order being typed lives on the device too (decision 0048): a reload, a restart or a new build restores it, key included.
  const draft = useKioskDraft(slug, draftScope, { key: idempotencyKey, rows, picked, note, service }, (kept) => {
    if (!kept) return setIdempotencyKey(newKey());
    setRows(kept.rows.length ? kept.rows.map((r) => ({ id: rowIds.current++, name: r.name, qty: r.qty, note: r.note })) : [newRow()]);
    setPicked(kept.picked);
    setNote(kept.note);
    if (kept.service) chooseService(kept.service);
    setIdempotencyKey(kept.key);
  });
  const { restored, takeResend } = draft;

  const [state, dispatch, pending] = useActionState<PlaceResult, FormData>(async (_prev, form) => {
    // Not `prev`: the action ignores it, and it would send the last ticket back with every order.
    const answer = await callAction(placeOrder, null, form, t("offline"), tc("newBuild"));
    // The server sends the ticket's link; its QR code is drawn here.
    const result: PlaceResult = answer?.ok ? { ok: true, data: { ...answer.data, qr: qrImage(answer.data.url) } } : answer;
    submitting.current = false;
    // An update: the new build's page sends this order again, with its key; kept nowhere (private mode), it stays on screen.
    if (result && !result.ok && result.code === NEW_BUILD) return draft.reloadToResend() ? null : result;
    // Lost on the way (offline, a restart): the order may be taken; the key waits in the draft for the retry.
    if (result && !(!result.ok && result.code === "UNAVAILABLE")) draft.answered();
    if (result?.ok) {
      draft.forget();
      onIssued(result.data);
      // This order is taken: the next one starts empty with a new key.
      setRows([newRow()]);
      setPicked([]);
      setNote("");
      resetService();
      setIdempotencyKey(newKey());
    }
    if (hasMenu && result && !result.ok && (result.code === "CONFLICT" || result.code === "BAD_INPUT")) onStaleMenu();
    return result;
  }, null);

  const ticket = state?.ok && state.data.orderId !== dismissed ? state.data : null;
  // A new build's reload waits while an order is on its way or its ticket is on screen (the draft covers the rest).
  useReloadHold(pending || ticket !== null);
  const namedRows = rows.filter((r) => r.name.trim());
  const formKey = JSON.stringify([namedRows.map((r) => r.name), picked, note, service]);
  const blank = isBlank({ rows, picked, note });
  const dishes = dishesById(menu);
  // A line's unit price includes its options. Free-text lines carry no price: they count as unpriced (their quantity does not matter then).
  const total = orderTotal([
    ...picked.map((p) => ({ qty: p.qty, priceCents: lineState(dishes.get(p.id), p).unitCents ?? undefined })),
    ...namedRows.map(() => ({ qty: 1 })),
  ]);

  // Ctrl/⌘+Enter takes the order from anywhere on the screen (a field, a menu button, nowhere).
  useEffect(() => {
    if (ticket || numberOnly || choosing) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey) || e.isComposing) return;
      e.preventDefault();
      formRef.current?.requestSubmit(takeRef.current);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [ticket, numberOnly, choosing]);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    // Not before the draft is read: its key is this order's.
    if (pending || submitting.current || !restored) return;
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const intent: KioskIntent = submitter?.getAttribute("value") === "numberOnly" || numberOnly ? "numberOnly" : "order";
    const form = new FormData(e.currentTarget);
    form.set("intent", intent);
    if (!numberOnly) {
      const refusal = kioskRefusal(intent, { items: picked.length + namedRows.length, note });
      if (refusal) {
        setRefused({ message: t(`errors.${refusal}`), form: formKey });
        return;
      }
      // The restaurant asks: this order needs eat in or take away (a bare number does not).
      if (intent === "order" && askService !== "off" && service === null) {
        setRefused({ message: t("errors.chooseService"), form: formKey });
        document.querySelector<HTMLInputElement>('input[name="service"]')?.focus();
        return;
      }
    }
    setRefused(null);
    submitting.current = true;
    if (!form.get("idempotencyKey")) form.set("idempotencyKey", idempotencyKey || newKey());
    draft.sent(intent);
    startTransition(() => dispatch(form));
  }

  // Sent again once after a reload to a new build, as the cashier sent it (the same button, the same key).
  useEffect(() => {
    const intent = restored ? takeResend() : null;
    if (intent === null) return;
    const button = intent === "numberOnly" ? formRef.current?.querySelector<HTMLButtonElement>('button[value="numberOnly"]') : takeRef.current;
    formRef.current?.requestSubmit(button ?? undefined);
  }, [restored, takeResend]);

  /** "Clear order": the cashier starts again; the draft and its key are forgotten. */
  function clearOrder() {
    draft.forget();
    setRows([newRow()]);
    setPicked([]);
    setNote("");
    resetService();
    setRefused(null);
    setIdempotencyKey(newKey());
  }

  // Implicit submission: Enter in a quantity field would take the order; only the button and Ctrl/⌘+Enter may.
  function onFormKey(e: React.KeyboardEvent<HTMLFormElement>) {
    if (e.key === "Enter" && !e.ctrlKey && !e.metaKey && e.target instanceof HTMLInputElement) e.preventDefault();
  }

  if (ticket) return <IssuedView ticket={ticket} paper={paper} printing={printing} onNext={() => setDismissed(ticket.orderId)} />;

  const serverError = state && !state.ok ? state.error : null;
  const error = refused && refused.form === formKey ? refused.message : serverError;
  // Every number of the series is still open: nothing was spent, and the cart stays as it is.
  const full = error !== null && error === serverError && state?.ok === false && state.code === "SERIES_FULL";
  const shown = full ? t("series.fullHint", { error }) : error;
  const hidden = (
    <>
      <input type="hidden" name="tenant" value={slug} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {series !== null ? <input type="hidden" name="series" value={series} /> : null}
      {printer !== null ? <input type="hidden" name="printer" value={printer} /> : null}
    </>
  );

  if (numberOnly) {
    return (
      <form ref={formRef} onSubmit={submit} aria-describedby={error ? "order-error" : undefined}>
        {hidden}
        <NextNumber pending={pending} error={shown} lastTicket={lastTicket} printing={printing} printerId={printer} />
      </form>
    );
  }

  const extras = (
    <>
      <ItemRows rows={rows} onChange={setRows} newRow={newRow} legend={hasMenu ? t("otherItems") : t("items")} wide={!hasMenu} example={example} />
      <div>
        <label htmlFor="order-note" className="mb-1 block text-xl font-bold">
          {t("note")} <span className="font-normal text-slate-600">{t("optional")}</span>
        </label>
        <textarea
          id="order-note"
          name="note"
          rows={2}
          maxLength={ORDER_LIMITS.note}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder={t("notePlaceholder")}
          className="w-full rounded-lg border-2 border-slate-400 px-3 py-2 text-xl focus:border-blue-700 focus:ring-4 focus:ring-blue-200 focus:outline-none"
        />
      </div>
    </>
  );

  const actions = (
    <div className="space-y-3">
      <ServiceChoice ask={askService} service={service} onChange={chooseService} />
      <OrderTotalLine total={total} currency={currency} />
      <FormError id="order-error" testId="order-error" message={shown} className="px-4 py-3 text-xl" />
      <button
        ref={takeRef}
        type="submit"
        name="intent"
        value="order"
        disabled={pending}
        aria-keyshortcuts="Control+Enter Meta+Enter"
        className="flex w-full items-center justify-center gap-4 rounded-2xl bg-emerald-700 px-6 py-4 text-3xl font-extrabold text-white hover:bg-emerald-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-300 disabled:cursor-wait disabled:bg-emerald-600/70"
      >
        {pending ? t("taking") : t("takeOrder")}
        <kbd aria-hidden="true" className="rounded-md border border-white/60 px-2 py-0.5 font-sans text-base font-semibold">
          {shortcut}
        </kbd>
      </button>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <button
          type="submit"
          name="intent"
          value="numberOnly"
          disabled={pending}
          aria-describedby="number-only-hint"
          className="rounded-xl border-2 border-emerald-800 bg-white px-5 py-2 text-lg font-bold text-emerald-900 hover:bg-emerald-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-300 disabled:cursor-wait"
        >
          {t("numberOnly")}
        </button>
        <span id="number-only-hint" className="text-base text-slate-700">
          {t("numberOnlyHint")}
        </span>
      </div>
      {blank ? null : (
        <button
          type="button"
          onClick={clearOrder}
          disabled={pending}
          className="rounded-lg px-1 text-lg font-semibold text-slate-700 underline underline-offset-4 hover:text-slate-900 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300 disabled:cursor-wait"
        >
          {t("clearOrder")}
        </button>
      )}
      <p className="text-base text-slate-600">{t("keyboardHint", { shortcut })}</p>
    </div>
  );

  const chooser = choosing ? (
    <OptionChooser
      key={`${choosing.dish.id}-${choosing.index}`}
      dish={choosing.dish}
      currency={currency}
      editing={choosing.index === null ? null : (picked[choosing.index] ?? null)}
      onDone={(line) => {
        setPicked(choosing.index === null ? addLine(picked, line) : replaceLine(picked, choosing.index, line));
        setChoosing(null);
      }}
      onRemove={
        choosing.index === null
          ? null
          : () => {
              setPicked(picked.filter((_, i) => i !== choosing.index));
              setChoosing(null);
            }
      }
      onCancel={() => setChoosing(null)}
    />
  ) : null;

  return (
    <>
      <form
        ref={formRef}
        onSubmit={submit}
        onKeyDown={onFormKey}
        className={hasMenu ? "grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" : "space-y-5"}
        aria-describedby={error ? "order-error" : undefined}
      >
        {hidden}
        {hasMenu ? (
          <MenuPad
            menu={menu}
            currency={currency}
            picked={picked}
            onTap={(dish) => (dish.groups.length > 0 ? setChoosing({ dish, index: null }) : setPicked(addOne(picked, dish)))}
          />
        ) : null}

        {/* No sticky bar (at 1024×768 it covered the note): with the menu, the total and the buttons come right under the
          tapped lines, where the cashier looks; free text and the note follow. */}
        <div className="space-y-4">
          {hasMenu ? (
            <>
              <OrderList
                menu={menu}
                currency={currency}
                picked={picked}
                onChange={setPicked}
                onEdit={(index) => {
                  const dish = dishes.get(picked[index]?.id ?? "");
                  if (dish) setChoosing({ dish, index });
                }}
              />
              {actions}
              {extras}
            </>
          ) : (
            <>
              {extras}
              {actions}
            </>
          )}
          <Reprint lastTicket={lastTicket} printing={printing} printerId={printer} />
        </div>
      </form>
      {/* Outside the order's form: the dialog's fields are not the order's, and its keys are its own. */}
      {chooser}
    </>
  );
}
