"use client";

import { useTranslations } from "next-intl";
import type { IssuedTicket } from "./actions";

/** "Reprint last ticket" with the number and time it is for; nothing before this device issued one. */
export function Reprint({ lastTicket }: { lastTicket: IssuedTicket | null }) {
  const t = useTranslations("kiosk");
  if (!lastTicket) return null;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
      <button
        type="button"
        onClick={() => window.print()}
        data-testid="reprint"
        className="rounded-xl border-2 border-slate-700 bg-white px-5 py-3 text-lg font-bold text-slate-900 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
      >
        {t("reprint")}
      </button>
      <span className="text-base text-slate-700">{t("reprintHint", { number: lastTicket.display ?? lastTicket.number, time: lastTicket.time })}</span>
    </div>
  );
}
