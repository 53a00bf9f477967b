"use client";

import { useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { MENU_LIMITS, type MenuSection } from "@/lib/core/menu";
import { addCategory, addItem, categoryOp } from "./actions";
import { BUTTON, DANGER, INPUT, Outcome, PLAIN, PRIMARY, useMenuForm } from "./menu-form";
import { ItemTable } from "./item-table";
import { OptionGroupsEditor } from "./option-groups-editor";
import { StationSelect, stationName, type StationChoice } from "./station-select";

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

function CategoryCard({ slug, section, stations }: { slug: string; section: MenuSection; stations: StationChoice[] }) {
  const t = useTranslations("managerMenu.category");
  const ts = useTranslations("managerMenu.station");
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
      <OptionGroupsEditor slug={slug} target="category" id={section.id} name={section.name} groups={section.optionGroups} />

      {count === 0 ? (
        <p className="mt-3 text-slate-700">{t("noItems")}</p>
      ) : (
        <ItemTable slug={slug} items={section.items} stations={stations} categoryStationId={section.stationId} categoryGroups={section.optionGroups} />
      )}
      <AddItemForm slug={slug} section={section} />
    </section>
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
