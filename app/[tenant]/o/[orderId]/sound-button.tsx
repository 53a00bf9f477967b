"use client";

import { useTranslations } from "next-intl";
import type { Chime } from "./use-chime";
import { Icon } from "@/app/_components/icon";

/** "Turn on sound": a tap lets the phone play the ready chime (and plays it once as a sample). */
export function SoundButton({ chime }: { chime: Chime }) {
  const t = useTranslations("customer");
  const on = chime.pref === "on" && !chime.blocked;
  return (
    <div className="mt-6 flex flex-col items-center gap-1">
      <button
        type="button"
        aria-pressed={on}
        onClick={on ? chime.turnOff : chime.turnOn}
        data-testid="sound-button"
        className={`inline-flex items-center gap-2 rounded-full border-2 px-5 py-3 text-lg font-bold focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 ${
          on
            ? "border-emerald-700 bg-emerald-50 text-emerald-900"
            : chime.blocked
              ? "border-amber-600 bg-amber-100 text-amber-950"
              : "border-blue-700 bg-white text-blue-800"
        }`}
      >
        <Icon name={on ? "bell" : "bellOff"} className="size-6" />
        {on ? t("soundOn") : chime.blocked ? t("soundBlocked") : t("soundOff")}
      </button>
      <p className="text-sm text-slate-600">{t("soundHint")}</p>
    </div>
  );
}
