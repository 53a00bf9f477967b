"use client";

import { useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { MAX_SLOTS } from "@/lib/core/schedule";
import { BUTTON, INPUT } from "../_components/console-styles";

/** The shift schedule as rows of time inputs (add, remove, at most MAX_SLOTS); sent as one "HH:MM,HH:MM" field. */
export function ScheduleTimes({ initial, describedBy }: { initial: string[]; describedBy: string }) {
  const t = useTranslations("managerSettings");
  // Each row keeps its own id so React keeps focus and typing on the right input.
  const nextId = useRef(initial.length);
  const [rows, setRows] = useState(() => initial.map((time, id) => ({ id, time })));
  const list = useRef<HTMLUListElement>(null);

  function add() {
    const id = nextId.current++;
    setRows((r) => [...r, { id, time: "" }]);
    // Focus the new row's input once it is rendered.
    requestAnimationFrame(() => list.current?.querySelector<HTMLInputElement>(`[data-row="${id}"]`)?.focus());
  }

  return (
    <fieldset aria-describedby={describedBy}>
      <legend className="mb-1 block text-lg font-semibold">{t("schedule")}</legend>
      <input
        type="hidden"
        name="schedule"
        value={rows
          .map((r) => r.time)
          .filter(Boolean)
          .join(",")}
      />
      {rows.length === 0 ? <p className="mb-2 text-base text-slate-700">{t("scheduleEmpty")}</p> : null}
      <ul ref={list} className="mb-2 flex flex-wrap gap-3">
        {rows.map((r, i) => (
          <li key={r.id} className="flex items-center gap-2">
            <input
              type="time"
              data-row={r.id}
              value={r.time}
              onChange={(e) => setRows((all) => all.map((x) => (x.id === r.id ? { ...x, time: e.target.value } : x)))}
              aria-label={t("scheduleTime", { n: i + 1 })}
              className={`${INPUT} w-40 tabular-nums`}
            />
            <button
              type="button"
              onClick={() => setRows((all) => all.filter((x) => x.id !== r.id))}
              aria-label={t("scheduleRemove", { n: i + 1, time: r.time || "—" })}
              className={`${BUTTON} min-h-12 border-2 border-slate-400 bg-white px-3 text-slate-800 hover:bg-slate-100 focus-visible:ring-blue-300`}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={add}
        disabled={rows.length >= MAX_SLOTS}
        className={`${BUTTON} border-2 border-blue-700 bg-white text-blue-800 hover:bg-blue-50 focus-visible:ring-blue-300 disabled:cursor-not-allowed`}
      >
        {t("scheduleAdd")}
      </button>
      {rows.length >= MAX_SLOTS ? <p className="mt-1 text-base text-slate-700">{t("scheduleFull", { max: MAX_SLOTS })}</p> : null}
    </fieldset>
  );
}
