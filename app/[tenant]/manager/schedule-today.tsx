"use client";

import { useTranslations } from "next-intl";
import type { ScheduleLine } from "./manager-data.server";

const KNOWN_REASONS = ["pastGrace", "shiftStartedSince", "superseded"] as const;
type Reason = (typeof KNOWN_REASONS)[number];

/** A state's colour; the words say it too. */
const STATE_STYLE: Record<ScheduleLine["state"], string> = {
  started: "text-emerald-800",
  skipped: "text-red-800",
  missed: "text-red-800",
  due: "text-amber-900",
  next: "text-blue-800",
  later: "text-slate-700",
  addedLate: "text-slate-700",
};

/** Today's scheduled shifts as they are: each slot started (by which shift), skipped and why, or still to come. */
export function ScheduleToday({ slug, schedule }: { slug: string; schedule: ScheduleLine[] }) {
  const t = useTranslations("manager.schedule");
  const change = (
    <a href={`/${slug}/manager/settings`} className="font-semibold text-blue-800 underline underline-offset-2">
      {t("change")}
    </a>
  );
  if (schedule.length === 0)
    return (
      <p data-testid="schedule-line" className="mt-1 text-slate-700">
        {t("none")} {change}
      </p>
    );
  const reason = (r: string | undefined) => t(`reasons.${(KNOWN_REASONS as readonly string[]).includes(r ?? "") ? (r as Reason) : "other"}`);
  return (
    <div data-testid="schedule-line" className="mt-2">
      <p className="text-slate-700">
        <span className="font-semibold">{t("heading")}</span> {change}
      </p>
      <ul className="mt-1 space-y-0.5 text-lg">
        {schedule.map((s) => (
          <li key={s.slot} data-testid={`slot-${s.slot}`} data-state={s.state}>
            <strong className="tabular-nums">{s.slot}</strong>{" "}
            <span className={`font-semibold ${STATE_STYLE[s.state]}`}>
              {s.state === "started"
                ? t("state.started", { shift: s.shift ?? 0 })
                : s.state === "skipped"
                  ? t("state.skipped", { reason: reason(s.reason) })
                  : t(`state.${s.state}`)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
