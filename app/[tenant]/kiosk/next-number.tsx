"use client";

import { useTranslations } from "next-intl";
import { FormError } from "@/app/_components/form-error";
import type { IssuedTicket } from "./actions";
import { Reprint } from "./reprint";
import type { KioskPrintingState } from "./use-kiosk-printing";

/** Number-only mode (the restaurant takes orders on another till): one big button, focused, so Enter or a tap issues. */
export function NextNumber({
  pending,
  error,
  lastTicket,
  printing,
  printerId,
}: {
  pending: boolean;
  error: string | null;
  lastTicket: IssuedTicket | null;
  printing: KioskPrintingState;
  printerId: string | null;
}) {
  const t = useTranslations("kiosk");
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <FormError id="order-error" testId="order-error" message={error} className="px-4 py-3 text-xl" />
      <button
        type="submit"
        name="intent"
        value="numberOnly"
        disabled={pending}
        autoFocus
        aria-describedby="next-number-hint"
        className="block min-h-[16rem] w-full rounded-3xl bg-emerald-700 px-8 py-10 text-6xl font-black text-white shadow-lg hover:bg-emerald-800 focus:outline-none focus-visible:ring-8 focus-visible:ring-emerald-300 active:bg-emerald-900 disabled:cursor-wait disabled:bg-emerald-600/70"
      >
        {pending ? t("issuing") : t("nextNumber")}
      </button>
      <p id="next-number-hint" className="text-center text-xl text-slate-700">
        {t("nextNumberHint")}
      </p>
      <Reprint lastTicket={lastTicket} printing={printing} printerId={printerId} />
    </div>
  );
}
