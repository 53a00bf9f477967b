"use client";

import type { ConnectionState } from "./use-board-socket";

const LABEL: Record<ConnectionState, string> = { connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…" };

/** A small "Live" / "Reconnecting…" pill. `tone` picks colours for dark or light screens. */
export function ConnectionBadge({ state, tone = "light" }: { state: ConnectionState; tone?: "light" | "dark" }) {
  const live = state === "live";
  const base = tone === "dark" ? (live ? "bg-emerald-950 text-emerald-200 ring-emerald-700" : "bg-amber-950 text-amber-200 ring-amber-600") : live ? "bg-emerald-50 text-emerald-800 ring-emerald-600" : "bg-amber-50 text-amber-900 ring-amber-600";
  return (
    <span aria-live="polite" className={`inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm font-semibold ring-1 ${base}`}>
      <span aria-hidden="true" className={`size-2.5 rounded-full ${live ? "bg-emerald-400" : "animate-pulse bg-amber-400"}`} />
      {LABEL[state]}
    </span>
  );
}
