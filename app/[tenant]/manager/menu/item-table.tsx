"use client";

import type { OptionGroup } from "@/lib/core/menu-options";
import { OptionGroupsEditor } from "./option-groups-editor";
import { useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "@/app/_lib/client-action";
import { tenantForm } from "@/app/_components/use-live-data";
import { FormError } from "@/app/_components/form-error";
import { Icon } from "@/app/_components/icon";
import { formatCents, MENU_LIMITS, type MenuItem } from "@/lib/core/menu";
// The kitchen's Sold-out panel's own action: one path for a dish sold out or back.
import { setDishAvailable } from "@/app/[tenant]/kitchen/sold-out-actions";
import { itemOp } from "./actions";
import { DANGER, INPUT, Outcome, PLAIN, PRIMARY, useMenuForm } from "./menu-form";
import { StationSelect, stationName, type StationChoice } from "./station-select";

/** How long Undo stays after a sold-out tap. */
const UNDO_MS = 10_000;

const TOGGLE =
  "inline-flex min-h-11 min-w-32 items-center justify-center gap-1 rounded-lg border-2 px-3 py-1 text-base font-bold focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 aria-busy:cursor-wait aria-busy:opacity-60";

/**
 * A category's items as one table: each header sits above its own column. Name, price and
 * station are saved with Save; sold out is one tap that saves at once, with a short Undo.
 */
export function ItemTable({
  slug,
  items,
  stations,
  categoryStationId,
  categoryGroups,
}: {
  slug: string;
  items: MenuItem[];
  stations: StationChoice[];
  categoryStationId: string | null;
  /** The category's option groups, offered by each item before its own. */
  categoryGroups: OptionGroup[];
}) {
  const t = useTranslations("managerMenu.item.columns");
  const ts = useTranslations("managerMenu.station");
  // Each column's width sits on its header; the name takes the rest of the row.
  const heads = [
    { label: t("name"), width: "" },
    { label: t("price"), width: "w-32" },
    ...(stations.length > 0 ? [{ label: ts("label"), width: "w-60" }] : []),
    { label: t("soldOut"), width: "w-60" },
    // As narrow as its four buttons on one line.
    { label: t("actions"), width: "w-0 whitespace-nowrap" },
  ];
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full border-collapse text-left">
        <thead>
          <tr className="border-b-2 border-slate-300 text-sm font-semibold text-slate-600 uppercase">
            {heads.map((h) => (
              <th key={h.label} scope="col" className={`px-1 py-2 font-semibold ${h.width}`}>
                {h.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {items.map((item) => (
            <ItemRow
              key={item.id}
              slug={slug}
              item={item}
              stations={stations}
              categoryStationId={categoryStationId}
              categoryGroups={categoryGroups}
              columns={heads.length}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ItemRow({
  slug,
  item,
  stations,
  categoryStationId,
  categoryGroups,
  columns,
}: {
  slug: string;
  item: MenuItem;
  stations: StationChoice[];
  categoryStationId: string | null;
  categoryGroups: OptionGroup[];
  columns: number;
}) {
  const t = useTranslations("managerMenu.item");
  const ts = useTranslations("managerMenu.station");
  const price = item.priceCents === null ? "" : formatCents(item.priceCents);
  // Controlled and re-synced from the server after each change, so focus stays where it is.
  const [name, setName] = useState(item.name);
  const [priceText, setPriceText] = useState(price);
  const [station, setStation] = useState(item.stationId ?? "");
  const [seen, setSeen] = useState({ name: item.name, price, stationId: item.stationId });
  if (item.name !== seen.name || price !== seen.price || item.stationId !== seen.stationId) {
    setSeen({ name: item.name, price, stationId: item.stationId });
    if (item.name !== seen.name) setName(item.name);
    if (price !== seen.price) setPriceText(price);
    if (item.stationId !== seen.stationId) setStation(item.stationId ?? "");
  }
  const { submit, pending, error } = useMenuForm(itemOp);
  const id = item.id;
  // The row's fields sit in several cells: they belong to the form in the first one.
  const form = `item-form-${id}`;

  return (
    <>
      {/* Its options row below belongs to it: no line between them. */}
      <tr data-testid="menu-item" className="border-b-0 align-middle">
        <td className="py-2 pr-2 pl-1">
          <form id={form} onSubmit={submit}>
            <input type="hidden" name="tenant" value={slug} />
            <input type="hidden" name="id" value={id} />
          </form>
          <label htmlFor={`item-name-${id}`} className="sr-only">
            {t("name", { name: item.name })}
          </label>
          <input
            id={`item-name-${id}`}
            form={form}
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={MENU_LIMITS.name}
            autoComplete="off"
            className={`${INPUT} min-w-40`}
          />
        </td>
        <td className="p-1">
          <label htmlFor={`item-price-${id}`} className="sr-only">
            {t("price", { name: item.name })}
          </label>
          <input
            id={`item-price-${id}`}
            form={form}
            name="price"
            value={priceText}
            onChange={(e) => setPriceText(e.target.value)}
            inputMode="decimal"
            autoComplete="off"
            className={`${INPUT} tabular-nums`}
          />
        </td>
        {stations.length > 0 ? (
          <td className="p-1">
            <StationSelect
              id={`item-station-${id}`}
              form={form}
              label={ts("itemLabel", { name: item.name })}
              labelHidden
              value={station}
              onChange={setStation}
              emptyLabel={ts("categoryStation", { name: stationName(stations, categoryStationId) })}
              stations={stations}
              className={INPUT}
            />
          </td>
        ) : null}
        <td className="p-1">
          <SoldOutToggle slug={slug} item={item} />
        </td>
        <td className="py-1 pr-1 pl-2">
          <div className="flex gap-2">
            <button type="submit" form={form} name="op" value="save" disabled={pending} aria-label={t("saveLabel", { name: item.name })} className={PRIMARY}>
              {t("save")}
            </button>
            <button type="submit" form={form} name="op" value="up" disabled={pending} aria-label={t("up", { name: item.name })} className={PLAIN}>
              ↑
            </button>
            <button type="submit" form={form} name="op" value="down" disabled={pending} aria-label={t("down", { name: item.name })} className={PLAIN}>
              ↓
            </button>
            <button type="submit" form={form} name="op" value="delete" disabled={pending} aria-label={t("delete", { name: item.name })} className={DANGER}>
              ✕
            </button>
          </div>
        </td>
      </tr>
      {error ? (
        <tr className="border-b-0">
          <td colSpan={columns} className="px-1 pb-2">
            <Outcome error={error} />
          </td>
        </tr>
      ) : null}
      <tr>
        <td colSpan={columns} className="px-1 pb-2">
          <OptionGroupsEditor slug={slug} target="item" id={id} name={item.name} groups={item.optionGroups} inherited={categoryGroups} />
        </td>
      </tr>
    </>
  );
}

/**
 * One tap: sold out, or back on sale, saved at once through the kitchen's path. Undo stays
 * a few seconds after a tap and puts the dish back as it was.
 */
function SoldOutToggle({ slug, item }: { slug: string; item: MenuItem }) {
  const t = useTranslations("managerMenu.item");
  const tc = useTranslations("common.errors");
  const [available, setAvailable] = useState(item.available);
  const [seen, setSeen] = useState(item.available);
  if (item.available !== seen) {
    setSeen(item.available);
    setAvailable(item.available);
  }
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // What Undo puts back (the state before the last tap), while it is offered.
  const [undo, setUndo] = useState<{ to: boolean } | null>(null);
  const [said, setSaid] = useState("");
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!undo) return;
    const timer = setTimeout(() => setUndo(null), UNDO_MS);
    return () => clearTimeout(timer);
  }, [undo]);

  async function flip(to: boolean, undoing: boolean) {
    if (busy) return;
    const before = available;
    setAvailable(to);
    setBusy(true);
    setError(null);
    const r = await callAction(setDishAvailable, null, tenantForm(slug, { id: item.id, available: String(to) }), tc("connectionLost"), tc("newBuild"));
    setBusy(false);
    if (!r?.ok) {
      setAvailable(before);
      setError(r?.error ?? tc("INTERNAL"));
      return;
    }
    setAvailable(r.data.available);
    setSaid(t(r.data.available ? "markedAvailable" : "markedSoldOut", { name: item.name }));
    setUndo(undoing ? null : { to: before });
    // Undo's button goes away with its tap: focus stays on the row's toggle.
    if (undoing) toggle.current?.focus();
  }

  return (
    <div>
      <div className="flex flex-wrap items-center gap-2">
        <button
          ref={toggle}
          type="button"
          aria-pressed={!available}
          aria-busy={busy}
          data-testid="sold-out-toggle"
          onClick={() => void flip(!available, false)}
          className={`${TOGGLE} ${available ? "border-emerald-700 bg-white text-emerald-800 hover:bg-emerald-50" : "border-red-700 bg-red-700 text-white hover:bg-red-800"}`}
        >
          {/* Named as the kitchen's toggle is: the dish, then the state it shows (pressed: sold out). */}
          <span className="sr-only">{item.name} </span>
          {available ? null : <Icon name="ban" />}
          {available ? t("onSale") : t("soldOut")}
        </button>
        {undo ? (
          <button
            type="button"
            onClick={() => void flip(undo.to, true)}
            disabled={busy}
            aria-label={t("undoLabel", { name: item.name })}
            className={`${PLAIN} min-h-11 underline`}
          >
            {t("undo")}
          </button>
        ) : null}
      </div>
      {/* A live region without role="status": the category's own status line stays the only one. */}
      <span aria-live="polite" className="sr-only">
        {said}
      </span>
      {error ? <FormError message={error} className="mt-1 px-2 py-1 text-sm" /> : null}
    </div>
  );
}
