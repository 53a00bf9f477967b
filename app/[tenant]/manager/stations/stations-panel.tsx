"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { STATION_LIMITS } from "@/lib/core/stations";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { BUTTON, INPUT } from "../_components/console-styles";
import { StatusNote } from "../_components/status-note";
import { useFreshError } from "../_components/use-fresh-error";
import { createStation, removeStation } from "./actions";
import type { PrinterChoice, StationRow } from "./rows";
import { StationCard } from "./station-card";

/** The stations in screen order, each with its own controls, and the form to add one. */
export function StationsPanel({ slug, stations, printers }: { slug: string; stations: StationRow[]; printers: PrinterChoice[] }) {
  const t = useTranslations("managerStations");
  const [created, create, creating] = useStaffAction(createStation);
  const [removed, remove, removing] = useStaffAction(removeStation);
  const [confirmId, setConfirmId] = useState<string | null>(null);
  // The station the last removal was for: its refusal shows on its card.
  const [removeId, setRemoveId] = useState<string | null>(null);
  const [createError, clearCreateError] = useFreshError(created);
  const [removeError, clearRemoveError] = useFreshError(removed);
  const [addedFor, setAddedFor] = useState<unknown>(null);
  const [addForm, setAddForm] = useState(0);
  // An add that worked empties its form (once per answer); a refused one keeps what was typed.
  if (created?.ok && addedFor !== created) {
    setAddedFor(created);
    setAddForm((n) => n + 1);
  }

  function submitRemove(id: string) {
    setConfirmId(null);
    setRemoveId(id);
    dispatchFields(remove, { tenant: slug, id });
  }

  return (
    <div className="space-y-6">
      <StatusNote token={removed}>{removed?.ok ? t("removed", { name: removed.data.name }) : null}</StatusNote>

      {stations.length === 0 ? <p className="text-lg text-slate-700">{t("none")}</p> : null}
      <ol className="space-y-4" aria-label={t("listLabel")}>
        {stations.map((s) => (
          <StationCard
            key={s.id}
            slug={slug}
            s={s}
            stations={stations}
            printers={printers}
            confirming={confirmId === s.id}
            onConfirm={(on) => setConfirmId(on ? s.id : null)}
            onRemove={() => submitRemove(s.id)}
            removing={removing}
            removeError={removeId === s.id ? removeError : null}
            onRemoveErrorSeen={clearRemoveError}
          />
        ))}
      </ol>

      <h2 id="add-station" className="pt-2 text-2xl font-bold">
        {t("addHeading")}
      </h2>
      <StatusNote token={created} testId="station-added">
        {created?.ok ? t(created.data.isDefault ? "addedDefault" : "added", { name: created.data.name }) : null}
      </StatusNote>
      <form
        key={addForm}
        onSubmit={submitTo(create)}
        onInput={clearCreateError}
        aria-labelledby="add-station"
        className="flex flex-wrap items-end gap-3 rounded-xl border-2 border-slate-300 bg-white p-4"
      >
        <input type="hidden" name="tenant" value={slug} />
        <div className="min-w-64 flex-1">
          <label htmlFor="new-station" className="mb-1 block text-lg font-semibold">
            {t("name")}
          </label>
          <input
            id="new-station"
            name="name"
            maxLength={STATION_LIMITS.name}
            autoComplete="off"
            placeholder={t("namePlaceholder")}
            aria-describedby="new-station-hint"
            className={INPUT}
          />
          <p id="new-station-hint" className="mt-1 text-base text-slate-600">
            {stations.length === 0 ? t("firstHint") : t("nameHint")}
          </p>
        </div>
        <button type="submit" disabled={creating} className={`${BUTTON} min-h-12 bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}>
          {creating ? t("creating") : t("create")}
        </button>
        {createError ? (
          <div className="basis-full">
            <FormError message={createError} testId="station-add-error" />
          </div>
        ) : null}
      </form>
    </div>
  );
}
