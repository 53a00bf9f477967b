"use client";

import { startTransition, useActionState, useId, useState } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "@/app/_lib/client-action";
import { FormError } from "@/app/_components/form-error";
import { formatCents, priceTextToCents } from "@/lib/core/menu";
import { OPTION_LIMITS, type OptionGroup } from "@/lib/core/menu-options";
import type { ActionState } from "@/lib/edges/next/validated-action.server";
import type { MenuResult } from "./actions";
import { saveOptionGroups } from "./option-actions";
import { INPUT, PLAIN, PRIMARY } from "./menu-form";

/** A group as the form holds it: prices as typed, "up to" as a number. */
interface DraftGroup {
  id?: string;
  name: string;
  required: boolean;
  max: number;
  options: { id?: string; name: string; price: string }[];
}

const toDraft = (g: OptionGroup): DraftGroup => ({
  id: g.id,
  name: g.name,
  required: g.required,
  max: g.max,
  options: g.options.map((o) => ({ id: o.id, name: o.name, price: o.priceCents === 0 ? "" : formatCents(o.priceCents) })),
});
const emptyGroup = (): DraftGroup => ({ name: "", required: true, max: 1, options: [{ name: "", price: "" }] });

/**
 * The options a dish (or every dish of a category) offers: groups such as "Size" (required,
 * one of Small / Large +2.00) or "Extras" (optional, up to 3). Saved as a whole list, checked
 * again by the server; ids are kept, so an edit changes no open order's options.
 */
export function OptionGroupsEditor({
  slug,
  target,
  id,
  name,
  groups,
  inherited = [],
}: {
  slug: string;
  target: "item" | "category";
  id: string;
  name: string;
  groups: OptionGroup[];
  /** For a dish: its category's groups, offered before its own. */
  inherited?: OptionGroup[];
}) {
  const t = useTranslations("managerMenu.options");
  const tc = useTranslations("common.errors");
  const [draft, setDraft] = useState<DraftGroup[]>(() => groups.map(toDraft));
  // Saved groups come back with the ids the server gave: take them (another form's refresh, same groups, keeps the draft).
  const stored = JSON.stringify(groups);
  const [seen, setSeen] = useState(stored);
  if (seen !== stored) {
    setSeen(stored);
    setDraft(groups.map(toDraft));
  }
  const [localError, setLocalError] = useState<string | null>(null);
  const [state, dispatch, pending] = useActionState<ActionState<MenuResult>, FormData>(
    (prev, form) => callAction(saveOptionGroups, prev, form, tc("connectionLost"), tc("newBuild")),
    null,
  );
  const base = useId();
  const summary = draft.length === 0 ? t("none") : draft.map((g) => g.name || "…").join(", ");

  const change = (gi: number, patch: Partial<DraftGroup>) => setDraft((d) => d.map((g, i) => (i === gi ? { ...g, ...patch } : g)));
  const changeOption = (gi: number, oi: number, patch: Partial<DraftGroup["options"][number]>) =>
    change(gi, { options: draft[gi]!.options.map((o, i) => (i === oi ? { ...o, ...patch } : o)) });

  function save() {
    setLocalError(null);
    const out = [];
    for (const g of draft) {
      const options = [];
      for (const o of g.options) {
        const cents = priceTextToCents(o.price);
        if (Number.isNaN(cents)) return setLocalError(t("badPrice", { option: o.name || "…" }));
        options.push({ ...(o.id ? { id: o.id } : {}), name: o.name.trim(), priceCents: cents ?? 0 });
      }
      if (!g.name.trim() || options.some((o) => !o.name)) return setLocalError(t("namesRequired"));
      const max = Math.min(Math.max(1, g.max), options.length);
      out.push({ ...(g.id ? { id: g.id } : {}), name: g.name.trim(), required: g.required, min: g.required ? 1 : 0, max, options });
    }
    const form = new FormData();
    form.set("tenant", slug);
    form.set("target", target);
    form.set("id", id);
    form.set("groups", JSON.stringify(out));
    startTransition(() => dispatch(form));
  }

  const error = localError ?? (state && !state.ok ? state.error : null);
  return (
    <details className="mt-2 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2">
      <summary className="cursor-pointer text-base font-semibold text-slate-800">
        {t("summary", { name })} <span className="font-normal text-slate-600">— {summary}</span>
      </summary>
      {inherited.length > 0 ? <p className="mt-2 text-base text-slate-700">{t("inherited", { groups: inherited.map((g) => g.name).join(", ") })}</p> : null}
      <div className="mt-3 space-y-4">
        {draft.map((g, gi) => (
          <fieldset key={gi} className="rounded-lg border border-slate-300 bg-white p-3">
            <legend className="sr-only">{t("groupLegend", { n: gi + 1 })}</legend>
            <div className="grid items-end gap-3 sm:grid-cols-[1fr_auto_auto_auto]">
              <label className="block">
                <span className="text-base font-semibold">{t("groupName")}</span>
                <input
                  aria-label={t("groupName")}
                  value={g.name}
                  onChange={(e) => change(gi, { name: e.target.value })}
                  maxLength={OPTION_LIMITS.name}
                  placeholder={t("groupPlaceholder")}
                  className={INPUT}
                />
              </label>
              <label className="flex min-h-12 items-center gap-2 text-base">
                <input type="checkbox" checked={g.required} onChange={(e) => change(gi, { required: e.target.checked })} className="size-6 accent-blue-700" />
                {t("required")}
              </label>
              <label className="flex min-h-12 items-center gap-2 text-base">
                {t("upTo")}
                <input
                  type="number"
                  min={1}
                  max={g.options.length}
                  value={g.max}
                  onChange={(e) => change(gi, { max: Number(e.target.value) || 1 })}
                  className={`${INPUT} w-16 px-2 tabular-nums`}
                />
              </label>
              <button type="button" className={PLAIN} onClick={() => setDraft((d) => d.filter((_, i) => i !== gi))}>
                {t("removeGroup")}
              </button>
            </div>
            <ul className="mt-3 space-y-2">
              {g.options.map((o, oi) => (
                <li key={oi} className="grid items-center gap-2 sm:grid-cols-[1fr_9rem_auto]">
                  <input
                    aria-label={t("optionName", { n: oi + 1 })}
                    value={o.name}
                    onChange={(e) => changeOption(gi, oi, { name: e.target.value })}
                    maxLength={OPTION_LIMITS.name}
                    placeholder={t("optionPlaceholder")}
                    className={INPUT}
                  />
                  <input
                    aria-label={t("optionPrice", { name: o.name || oi + 1 })}
                    value={o.price}
                    inputMode="decimal"
                    onChange={(e) => changeOption(gi, oi, { price: e.target.value })}
                    placeholder={t("pricePlaceholder")}
                    className={`${INPUT} tabular-nums`}
                  />
                  <button
                    type="button"
                    className={PLAIN}
                    disabled={g.options.length === 1}
                    onClick={() => change(gi, { options: g.options.filter((_, i) => i !== oi), max: Math.min(g.max, g.options.length - 1) })}
                  >
                    {t("removeOption")}
                  </button>
                </li>
              ))}
            </ul>
            <button
              type="button"
              className={`${PLAIN} mt-2`}
              disabled={g.options.length >= OPTION_LIMITS.options}
              onClick={() => change(gi, { options: [...g.options, { name: "", price: "" }] })}
            >
              {t("addOption")}
            </button>
          </fieldset>
        ))}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="button" className={PLAIN} disabled={draft.length >= OPTION_LIMITS.groups} onClick={() => setDraft((d) => [...d, emptyGroup()])}>
          {t("addGroup")}
        </button>
        <button type="button" className={PRIMARY} disabled={pending} onClick={save} aria-describedby={`${base}-status`}>
          {pending ? t("saving") : t("save")}
        </button>
      </div>
      <div id={`${base}-status`}>
        {error ? (
          <FormError message={error} className="mt-3 px-3 py-2 text-base" />
        ) : state?.ok ? (
          <p role="status" className="mt-3 text-base font-medium text-emerald-800">
            {t("saved", { name: state.data.name })}
          </p>
        ) : null}
      </div>
    </details>
  );
}
