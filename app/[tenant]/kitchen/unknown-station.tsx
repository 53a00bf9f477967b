"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { KitchenStation } from "./types";

/** A station's screen for a station the restaurant does not have (a mistyped link, or removed): where to go instead. */
export function UnknownStation({ slug, stations }: { slug: string; stations: readonly KitchenStation[] }) {
  const t = useTranslations("kitchen.station");
  return (
    <section aria-labelledby="unknown-station" data-testid="unknown-station" className="mx-auto max-w-2xl space-y-4 p-6">
      <h1 id="unknown-station" className="text-3xl font-extrabold">
        {t("unknownTitle")}
      </h1>
      <p className="text-lg text-slate-800">{stations.length > 0 ? t("unknownText") : t("unknownNone")}</p>
      <ul className="flex flex-wrap gap-2">
        <li>
          <Link
            href={`/${slug}/kitchen`}
            className="inline-flex min-h-11 items-center rounded-xl bg-slate-900 px-4 text-lg font-bold text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500"
          >
            {t("main")}
          </Link>
        </li>
        {stations.map((s) => (
          <li key={s.id}>
            <Link
              href={`/${slug}/kitchen?station=${encodeURIComponent(s.id)}`}
              className="inline-flex min-h-11 items-center rounded-xl border-2 border-slate-700 px-4 text-lg font-bold text-slate-900 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500"
            >
              {s.name}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
