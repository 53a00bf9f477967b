"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { LOCALES } from "@/lib/core/locales";

/** English / 中文: reloads this page (keeping its query) with `?lang=`, which the device then remembers. */
export function LanguageSwitcher({ tone = "light" }: { tone?: "light" | "dark" }) {
  const t = useTranslations("common");
  const locale = useLocale();
  const path = usePathname();
  const search = useSearchParams();
  const hrefFor = (l: string) => {
    const q = new URLSearchParams(search.toString());
    q.set("lang", l);
    return `${path}?${q.toString()}`;
  };
  const idle = tone === "dark" ? "text-slate-200 hover:bg-slate-700" : "text-blue-800 hover:bg-blue-50";
  const current = tone === "dark" ? "bg-white text-slate-900" : "bg-blue-800 text-white";
  return (
    <nav aria-label={t("language")} className="flex gap-1">
      {LOCALES.map((l) => (
        <a
          key={l}
          href={hrefFor(l)}
          lang={l}
          hrefLang={l}
          aria-current={l === locale ? "true" : undefined}
          className={`rounded-md px-2.5 py-1 text-base font-semibold focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 ${l === locale ? current : idle}`}
        >
          {t(`languages.${l}`)}
        </a>
      ))}
    </nav>
  );
}
