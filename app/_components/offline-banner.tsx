"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { ConnectionState } from "./use-board-socket";

/**
 * The banner every live screen shows while it is not connected: says so in words, and
 * since when its numbers are unchanged (in 24-hour time, as every other time on the screens).
 * It never hides what the screen already shows.
 */
export function OfflineBanner({ state, lastUpdated, tone = "light" }: { state: ConnectionState; lastUpdated: number | null; tone?: "light" | "dark" }) {
  const t = useTranslations("common.connection");
  const format = useFormatter();
  if (state === "live" || state === "connecting") return null;
  const time = lastUpdated ? format.dateTime(new Date(lastUpdated), { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }) : null;
  return (
    <div
      role="alert"
      data-testid="offline-banner"
      className={`flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-lg font-bold ${tone === "dark" ? "bg-amber-400 text-black" : "border-b-4 border-amber-600 bg-amber-100 text-amber-950"}`}
    >
      <span aria-hidden="true">⚠</span>
      <span>{time ? t("offline", { time }) : t("offlineNever")}</span>
      <span className="font-medium">{t("offlineHint")}</span>
    </div>
  );
}
