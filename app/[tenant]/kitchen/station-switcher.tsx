"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { KitchenStation } from "./types";

const LINK =
  "rounded-md border-2 border-slate-300 px-2 py-0.5 text-base font-semibold text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500 aria-[current=page]:border-slate-800 aria-[current=page]:bg-slate-800 aria-[current=page]:text-white";

/** Links to the main kitchen and each station's own screen; nothing for a restaurant without stations. */
export function StationSwitcher({ slug, stations, current }: { slug: string; stations: readonly KitchenStation[]; current: string | null }) {
  const t = useTranslations("kitchen.station");
  if (stations.length === 0) return null;
  const screens = [{ id: null, name: t("main") }, ...stations.map((s) => ({ id: s.id, name: s.name }))];
  return (
    <nav aria-label={t("switcher")} data-testid="station-switcher" className="flex flex-wrap items-center gap-1">
      {screens.map((s) => (
        <Link
          key={s.id ?? "main"}
          href={s.id ? `/${slug}/kitchen?station=${encodeURIComponent(s.id)}` : `/${slug}/kitchen`}
          aria-current={s.id === current ? "page" : undefined}
          className={LINK}
        >
          {s.name}
        </Link>
      ))}
    </nav>
  );
}
