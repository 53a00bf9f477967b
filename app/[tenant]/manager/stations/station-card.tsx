"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { STATION_LIMITS } from "@/lib/core/stations";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { ConfirmButtons } from "../_components/confirm-buttons";
import { BUTTON, INPUT } from "../_components/console-styles";
import { StatusNote } from "../_components/status-note";
import { useFreshError } from "../_components/use-fresh-error";
import { updateStation } from "./actions";
import type { PrinterChoice, StationRow } from "./rows";
import { ScreenLink } from "./screen-link";

const OUTLINE = `${BUTTON} min-h-12 border-2 bg-white`;
const PLAIN = `${OUTLINE} border-slate-500 text-slate-800 hover:bg-slate-100 focus-visible:ring-blue-300`;
const DARK = `${BUTTON} min-h-12 bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`;

/** One station: its default mark, open work, screen link, chit printer; rename, make default, remove (confirmed). */
export function StationCard({
  slug,
  s,
  stations,
  printers,
  confirming,
  onConfirm,
  onRemove,
  removing,
  removeError,
  onRemoveErrorSeen,
}: {
  slug: string;
  s: StationRow;
  stations: readonly StationRow[];
  printers: readonly PrinterChoice[];
  confirming: boolean;
  onConfirm: (on: boolean) => void;
  onRemove: () => void;
  removing: boolean;
  /** Why removing this station was refused, until the manager does something else. */
  removeError: string | null;
  onRemoveErrorSeen: () => void;
}) {
  const t = useTranslations("managerStations");
  const [saved, save, saving] = useStaffAction(updateStation);
  const [renaming, setRenaming] = useState(false);
  const [saveError, clearSaveError] = useFreshError(saved);
  const [savedFor, setSavedFor] = useState<unknown>(null);
  // A rename that worked closes its form (once per answer; a refused one keeps what was typed).
  if (saved?.ok && savedFor !== saved) {
    setSavedFor(saved);
    setRenaming(false);
  }
  const fallback = stations.find((o) => o.isDefault && o.id !== s.id);
  const knownPrinter = s.printerId === null || printers.some((p) => p.id === s.printerId);
  const headingId = `station-${s.id}`;
  const act = (fields: Record<string, string>) => {
    clearSaveError();
    onRemoveErrorSeen();
    dispatchFields(save, { tenant: slug, id: s.id, ...fields });
  };

  function askRemove() {
    clearSaveError();
    onRemoveErrorSeen();
    // The default among others is refused by the service, whose sentence says what to do: nothing to confirm.
    if (s.isDefault && stations.length > 1) onRemove();
    else onConfirm(true);
  }

  return (
    <li>
      <section aria-labelledby={headingId} data-testid="station" className="space-y-4 rounded-xl border-2 border-slate-300 bg-white p-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <h2 id={headingId} className="text-2xl font-bold break-words">
              {s.name}
            </h2>
            {s.isDefault ? (
              <span data-testid="station-default" className="rounded-md bg-blue-100 px-2 py-0.5 text-base font-semibold text-blue-900">
                {t("default")}
              </span>
            ) : null}
          </div>
          <p data-testid="station-open" className={`text-lg ${s.open > 0 ? "font-bold text-amber-900" : "text-slate-700"}`}>
            {t("open", { count: s.open })}
          </p>
        </div>
        {s.isDefault ? <p className="text-base text-slate-700">{t("defaultHint")}</p> : null}

        <ScreenLink name={s.name} url={s.screenUrl} id={s.id} />

        <div className="flex flex-wrap items-end justify-between gap-3">
          {printers.length === 0 ? (
            <p className="text-base text-slate-600">
              <span className="font-semibold text-slate-800">{t("printer")}:</span> {t("noPrinters")}
            </p>
          ) : (
            <form onSubmit={submitTo(save)} onInput={clearSaveError} className="flex flex-wrap items-end gap-3">
              <input type="hidden" name="tenant" value={slug} />
              <input type="hidden" name="id" value={s.id} />
              <input type="hidden" name="op" value="printer" />
              <div className="min-w-64">
                <label htmlFor={`station-printer-${s.id}`} className="mb-1 block text-lg font-semibold">
                  {t("printer")}
                </label>
                <select id={`station-printer-${s.id}`} name="printerId" defaultValue={s.printerId ?? ""} key={s.printerId ?? ""} className={INPUT}>
                  <option value="">{t("noPrinter")}</option>
                  {knownPrinter ? null : <option value={s.printerId!}>{t("gonePrinter")}</option>}
                  {printers.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" disabled={saving} aria-label={t("savePrinterLabel", { name: s.name })} className={PLAIN}>
                {t("savePrinter")}
              </button>
            </form>
          )}
          {renaming || confirming ? null : (
            <div className="flex flex-wrap gap-2">
              <button type="button" aria-label={t("renameLabel", { name: s.name })} onClick={() => setRenaming(true)} className={PLAIN}>
                {t("rename")}
              </button>
              {s.isDefault ? null : (
                <button
                  type="button"
                  disabled={saving}
                  aria-label={t("makeDefaultLabel", { name: s.name })}
                  onClick={() => act({ op: "default" })}
                  className={PLAIN}
                >
                  {t("makeDefault")}
                </button>
              )}
              <button
                type="button"
                disabled={removing}
                aria-label={t("removeLabel", { name: s.name })}
                onClick={askRemove}
                className={`${OUTLINE} border-red-700 text-red-800 hover:bg-red-50 focus-visible:ring-red-300`}
              >
                {t("remove")}
              </button>
            </div>
          )}
        </div>

        {renaming ? (
          <form
            onSubmit={submitTo(save)}
            onInput={clearSaveError}
            aria-label={t("renameHeading", { name: s.name })}
            className="flex flex-wrap items-end gap-3 rounded-lg border-2 border-blue-700 bg-blue-50 p-3"
          >
            <input type="hidden" name="tenant" value={slug} />
            <input type="hidden" name="id" value={s.id} />
            <input type="hidden" name="op" value="rename" />
            <div className="min-w-64 flex-1">
              <label htmlFor={`station-name-${s.id}`} className="mb-1 block text-lg font-semibold">
                {t("newName")}
              </label>
              <input
                id={`station-name-${s.id}`}
                name="name"
                defaultValue={s.name}
                maxLength={STATION_LIMITS.name}
                autoComplete="off"
                autoFocus
                className={INPUT}
              />
            </div>
            <button type="submit" disabled={saving} className={DARK}>
              {saving ? t("saving") : t("save")}
            </button>
            <button type="button" onClick={() => setRenaming(false)} className={PLAIN}>
              {t("cancel")}
            </button>
          </form>
        ) : null}

        {confirming ? (
          <div className="space-y-2 rounded-lg border-2 border-amber-600 bg-amber-50 p-3">
            <p className="text-lg font-semibold text-amber-950">
              {fallback
                ? t("removeConfirm", { name: s.name, count: s.open, fallback: fallback.name })
                : t("removeLastConfirm", { name: s.name, count: s.open })}
            </p>
            <ConfirmButtons yes={t("removeYes")} back={t("back")} pending={removing} onYes={onRemove} onBack={() => onConfirm(false)} />
          </div>
        ) : null}

        <FormError message={saveError ?? removeError} testId="station-error" />
        {/* A refusal since the last save is what the manager needs to read: the older "saved" goes. */}
        {removeError ? null : (
          <StatusNote token={saved}>
            {saved?.ok
              ? t(saved.data.op === "default" ? "madeDefault" : saved.data.op === "rename" ? "renamed" : "printerSaved", { name: saved.data.name })
              : null}
          </StatusNote>
        )}
      </section>
    </li>
  );
}
