"use client";

import { startTransition, useActionState, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "@/app/_lib/client-action";
import { FormError } from "@/app/_components/form-error";
import { formatCents, MENU_LIMITS, type MenuItem, type MenuSection } from "@/lib/core/menu";
import type { ActionState, FormAction } from "@/lib/edges/next/validated-action.server";
import { addCategory, addItem, categoryOp, itemOp, type MenuResult } from "./actions";
import { StationSelect, stationName, type StationChoice } from "./station-select";

const INPUT = "w-full rounded-lg border-2 border-slate-400 px-3 py-2 text-lg focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200";
const BUTTON =
  "rounded-lg border-2 px-3 py-2 text-base font-semibold focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 disabled:cursor-wait disabled:opacity-60";
const PLAIN = `${BUTTON} border-slate-400 bg-white text-slate-900 hover:bg-slate-100`;
const PRIMARY = `${BUTTON} border-blue-700 bg-blue-700 text-white hover:bg-blue-800`;
const DANGER = `${BUTTON} border-red-700 bg-white text-red-800 hover:bg-red-50`;

/**
 * One menu form: submits with the pressed button's `op`, without React's automatic form
 * reset (a refused name stays typed), and reports the result to `onOk`.
 */
function useMenuForm(action: FormAction<MenuResult>, onOk?: (r: MenuResult) => void) {
  const tc = useTranslations("common.errors");
  const [state, dispatch, pending] = useActionState<ActionState<MenuResult>, FormData>(async (prev, form) => {
    const result = await callAction(action, prev, form, tc("connectionLost"), tc("newBuild"));
    if (result?.ok) onOk?.(result.data);
    return result;
  }, null);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    const form = new FormData(e.currentTarget, (e.nativeEvent as SubmitEvent).submitter);
    startTransition(() => dispatch(form));
  }
  return { state, submit, pending, error: state && !state.ok ? state.error : null };
}

/** The manager's menu: add categories; per category rename, reorder, delete, and its items; with stations, who makes each. */
export function MenuEditor({ slug, sections, stations }: { slug: string; sections: MenuSection[]; stations: StationChoice[] }) {
  const t = useTranslations("managerMenu");
  return (
    <div className="space-y-8">
      <AddCategoryForm slug={slug} />
      {sections.length === 0 ? <p className="text-lg text-slate-700">{t("empty")}</p> : null}
      {sections.map((s) => (
        <CategoryCard key={s.id} slug={slug} section={s} stations={stations} />
      ))}
    </div>
  );
}

function AddCategoryForm({ slug }: { slug: string }) {
  const t = useTranslations("managerMenu.addCategory");
  const formRef = useRef<HTMLFormElement>(null);
  const { state, submit, pending, error } = useMenuForm(addCategory, () => formRef.current?.reset());
  return (
    <form ref={formRef} onSubmit={submit} aria-labelledby="add-category" className="rounded-2xl border-2 border-dashed border-slate-400 bg-white p-4">
      <h2 id="add-category" className="mb-2 text-2xl font-bold">
        {t("heading")}
      </h2>
      <input type="hidden" name="tenant" value={slug} />
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <label htmlFor="new-category" className="mb-1 block text-lg font-semibold">
            {t("name")}
          </label>
          <input id="new-category" name="name" maxLength={MENU_LIMITS.name} autoComplete="off" placeholder={t("placeholder")} className={INPUT} />
        </div>
        <button type="submit" disabled={pending} className={`${PRIMARY} px-5 py-3 text-lg`}>
          {t("submit")}
        </button>
      </div>
      <Outcome error={error}>{state?.ok ? t("done", { name: state.data.name }) : null}</Outcome>
    </form>
  );
}

/** A form's error (role="alert") or its success line (role="status"). */
function Outcome({ error, children }: { error: string | null; children?: ReactNode }) {
  if (error) return <FormError message={error} className="mt-3 px-3 py-2 text-base" />;
  return children ? (
    <p role="status" className="mt-3 text-base font-medium text-emerald-800">
      {children}
    </p>
  ) : null;
}

function CategoryCard({ slug, section, stations }: { slug: string; section: MenuSection; stations: StationChoice[] }) {
  const t = useTranslations("managerMenu.category");
  const ts = useTranslations("managerMenu.station");
  const th = useTranslations("managerMenu.item.columns");
  const [name, setName] = useState(section.name);
  // A new name from the server replaces what is typed (adjusted while rendering, not after).
  const [seenName, setSeenName] = useState(section.name);
  if (section.name !== seenName) {
    setSeenName(section.name);
    setName(section.name);
  }
  const [station, setStation] = useState(section.stationId ?? "");
  const [seenStation, setSeenStation] = useState(section.stationId);
  if (section.stationId !== seenStation) {
    setSeenStation(section.stationId);
    setStation(section.stationId ?? "");
  }
  const [confirming, setConfirming] = useState(false);
  const { submit, pending, error } = useMenuForm(categoryOp, () => setConfirming(false));
  const headingId = `category-${section.id}`;
  const count = section.items.length;

  return (
    <section aria-labelledby={headingId} data-testid="menu-category" className="rounded-2xl border-2 border-slate-300 bg-white p-4">
      <h2 id={headingId} className="text-2xl font-bold">
        {section.name}
      </h2>
      <form onSubmit={submit} className="mt-2">
        <input type="hidden" name="tenant" value={slug} />
        <input type="hidden" name="id" value={section.id} />
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={`category-name-${section.id}`} className="sr-only">
            {t("name", { name: section.name })}
          </label>
          <input
            id={`category-name-${section.id}`}
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={MENU_LIMITS.name}
            autoComplete="off"
            className={`${INPUT} max-w-xs`}
          />
          <button type="submit" name="op" value="rename" disabled={pending} aria-label={t("renameLabel", { name: section.name })} className={PLAIN}>
            {t("rename")}
          </button>
          <button type="submit" name="op" value="up" disabled={pending} aria-label={t("up", { name: section.name })} className={PLAIN}>
            ↑
          </button>
          <button type="submit" name="op" value="down" disabled={pending} aria-label={t("down", { name: section.name })} className={PLAIN}>
            ↓
          </button>
          {count > 0 ? (
            <button type="button" onClick={() => setConfirming(true)} aria-label={t("deleteLabel", { name: section.name })} className={DANGER}>
              {t("delete")}
            </button>
          ) : (
            <button type="submit" name="op" value="delete" disabled={pending} aria-label={t("deleteLabel", { name: section.name })} className={DANGER}>
              {t("delete")}
            </button>
          )}
        </div>
        {stations.length > 0 ? (
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <StationSelect
              id={`category-station-${section.id}`}
              label={ts("label")}
              value={station}
              onChange={setStation}
              emptyLabel={ts("defaultStation", { name: stationName(stations, null) })}
              stations={stations}
              className={`${INPUT} max-w-xs`}
            />
            <button type="submit" name="op" value="station" disabled={pending} aria-label={ts("setLabel", { name: section.name })} className={PLAIN}>
              {ts("set")}
            </button>
          </div>
        ) : null}
        {confirming ? (
          <div role="group" aria-labelledby={`confirm-${section.id}`} className="mt-3 space-y-2 rounded-xl border-2 border-red-700 bg-red-50 p-3">
            <p id={`confirm-${section.id}`} className="text-lg font-semibold text-red-900">
              {t("confirmDelete", { name: section.name, count })}
            </p>
            <div className="flex flex-wrap gap-2">
              {/* Focus moves here so Enter confirms and Tab reaches "Keep it". */}
              <button
                type="submit"
                name="op"
                value="deleteAll"
                autoFocus
                disabled={pending}
                className={`${BUTTON} border-red-700 bg-red-700 text-white hover:bg-red-800`}
              >
                {t("deleteAll")}
              </button>
              <button type="button" onClick={() => setConfirming(false)} className={PLAIN}>
                {t("keep")}
              </button>
            </div>
          </div>
        ) : null}
        <Outcome error={error} />
      </form>

      {count === 0 ? (
        <p className="mt-3 text-slate-700">{t("noItems")}</p>
      ) : (
        <div className="mt-4">
          <div aria-hidden className={`hidden gap-2 px-1 text-sm font-semibold text-slate-600 uppercase sm:grid ${gridOf(stations)}`}>
            <span>{th("name")}</span>
            <span>{th("price")}</span>
            {stations.length > 0 ? <span>{ts("label")}</span> : null}
            <span>{th("available")}</span>
            <span>{th("actions")}</span>
          </div>
          <ul className="divide-y divide-slate-200">
            {section.items.map((item) => (
              <ItemRow key={item.id} slug={slug} item={item} stations={stations} categoryStationId={section.stationId} />
            ))}
          </ul>
        </div>
      )}
      <AddItemForm slug={slug} section={section} />
    </section>
  );
}

/** The item rows' columns: a station column only when the restaurant has stations. */
const gridOf = (stations: readonly StationChoice[]) => (stations.length > 0 ? "sm:grid-cols-[1fr_7rem_14rem_6rem_auto]" : "sm:grid-cols-[1fr_7rem_6rem_auto]");

function ItemRow({ slug, item, stations, categoryStationId }: { slug: string; item: MenuItem; stations: StationChoice[]; categoryStationId: string | null }) {
  const t = useTranslations("managerMenu.item");
  const ts = useTranslations("managerMenu.station");
  const price = item.priceCents === null ? "" : formatCents(item.priceCents);
  // Controlled and re-synced from the server after each change, so focus stays where it is.
  const [name, setName] = useState(item.name);
  const [priceText, setPriceText] = useState(price);
  const [available, setAvailable] = useState(item.available);
  const [station, setStation] = useState(item.stationId ?? "");
  const [seen, setSeen] = useState({ name: item.name, price, available: item.available, stationId: item.stationId });
  if (item.name !== seen.name || price !== seen.price || item.available !== seen.available || item.stationId !== seen.stationId) {
    setSeen({ name: item.name, price, available: item.available, stationId: item.stationId });
    if (item.name !== seen.name) setName(item.name);
    if (price !== seen.price) setPriceText(price);
    if (item.available !== seen.available) setAvailable(item.available);
    if (item.stationId !== seen.stationId) setStation(item.stationId ?? "");
  }
  const saveRef = useRef<HTMLButtonElement>(null);
  const { submit, pending, error } = useMenuForm(itemOp);
  const id = item.id;

  return (
    <li data-testid="menu-item" className="py-2">
      <form onSubmit={submit} className={`grid grid-cols-[1fr_7rem] items-center gap-2 ${gridOf(stations)}`}>
        <input type="hidden" name="tenant" value={slug} />
        <input type="hidden" name="id" value={id} />
        <div>
          <label htmlFor={`item-name-${id}`} className="sr-only">
            {t("name", { name: item.name })}
          </label>
          <input
            id={`item-name-${id}`}
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={MENU_LIMITS.name}
            autoComplete="off"
            className={INPUT}
          />
        </div>
        <div>
          <label htmlFor={`item-price-${id}`} className="sr-only">
            {t("price", { name: item.name })}
          </label>
          <input
            id={`item-price-${id}`}
            name="price"
            value={priceText}
            onChange={(e) => setPriceText(e.target.value)}
            inputMode="decimal"
            autoComplete="off"
            className={`${INPUT} tabular-nums`}
          />
        </div>
        {stations.length > 0 ? (
          <div className="col-span-2 sm:col-span-1">
            <StationSelect
              id={`item-station-${id}`}
              label={ts("itemLabel", { name: item.name })}
              labelHidden
              value={station}
              onChange={setStation}
              emptyLabel={ts("categoryStation", { name: stationName(stations, categoryStationId) })}
              stations={stations}
              className={INPUT}
            />
          </div>
        ) : null}
        <div className="flex items-center gap-2">
          <input
            id={`item-available-${id}`}
            type="checkbox"
            name="available"
            checked={available}
            onChange={(e) => {
              setAvailable(e.target.checked);
              // One tap marks an item sold out (or back): it saves the row at once.
              e.target.form?.requestSubmit(saveRef.current);
            }}
            className="size-7 accent-emerald-700"
          />
          <label htmlFor={`item-available-${id}`} className="sr-only">
            {t("available", { name: item.name })}
          </label>
          {!item.available ? <span className="rounded bg-slate-200 px-2 py-0.5 text-sm font-semibold text-slate-800">{t("soldOut")}</span> : null}
        </div>
        <div className="col-span-2 flex flex-wrap gap-2 sm:col-span-1">
          <button ref={saveRef} type="submit" name="op" value="save" disabled={pending} aria-label={t("saveLabel", { name: item.name })} className={PRIMARY}>
            {t("save")}
          </button>
          <button type="submit" name="op" value="up" disabled={pending} aria-label={t("up", { name: item.name })} className={PLAIN}>
            ↑
          </button>
          <button type="submit" name="op" value="down" disabled={pending} aria-label={t("down", { name: item.name })} className={PLAIN}>
            ↓
          </button>
          <button type="submit" name="op" value="delete" disabled={pending} aria-label={t("delete", { name: item.name })} className={DANGER}>
            ✕
          </button>
        </div>
      </form>
      <Outcome error={error} />
    </li>
  );
}

function AddItemForm({ slug, section }: { slug: string; section: MenuSection }) {
  const t = useTranslations("managerMenu.addItem");
  const formRef = useRef<HTMLFormElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const { state, submit, pending, error } = useMenuForm(addItem, () => {
    // Ready for the next dish at once.
    formRef.current?.reset();
    nameRef.current?.focus();
  });
  const id = section.id;
  return (
    <form ref={formRef} onSubmit={submit} className="mt-4 border-t border-slate-200 pt-3">
      <fieldset>
        <legend className="mb-2 text-lg font-bold">{t("heading", { category: section.name })}</legend>
        <input type="hidden" name="tenant" value={slug} />
        <input type="hidden" name="categoryId" value={id} />
        <div className="flex flex-wrap items-end gap-3">
          <div className="min-w-56 flex-1">
            <label htmlFor={`new-item-name-${id}`} className="mb-1 block font-semibold">
              {t("name")}
            </label>
            <input ref={nameRef} id={`new-item-name-${id}`} name="name" maxLength={MENU_LIMITS.name} autoComplete="off" className={INPUT} />
          </div>
          <div className="w-36">
            <label htmlFor={`new-item-price-${id}`} className="mb-1 block font-semibold">
              {t("price")} <span className="font-normal text-slate-600">{t("optional")}</span>
            </label>
            <input
              id={`new-item-price-${id}`}
              name="price"
              inputMode="decimal"
              autoComplete="off"
              placeholder={t("pricePlaceholder")}
              className={`${INPUT} tabular-nums`}
            />
          </div>
          <label className="flex items-center gap-2 py-2 text-lg">
            <input type="checkbox" name="available" defaultChecked className="size-6 accent-emerald-700" />
            {t("available")}
          </label>
          <button type="submit" disabled={pending} className={`${PRIMARY} px-5 py-3 text-lg`}>
            {t("submit")}
          </button>
        </div>
      </fieldset>
      <Outcome error={error}>{state?.ok ? t("done", { name: state.data.name }) : null}</Outcome>
    </form>
  );
}
