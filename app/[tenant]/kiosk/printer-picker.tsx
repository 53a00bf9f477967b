"use client";

import { useTranslations } from "next-intl";
import { printerForOrder } from "@/lib/core/printing/printers";
import { useForgottenChoice } from "./use-forgotten-choice";
import type { KioskPrinter } from "./use-kiosk-printing";
import type { DevicePrinter } from "./use-kiosk-device";

type T = ReturnType<typeof useTranslations<"kiosk.printing">>;

/** A printer's state in words ("ready", "out of paper"…): never its colour alone. */
export const printerState = (t: T, status: KioskPrinter["status"]): string => t(`status.${status}`);

/**
 * The printer this device chose, checked against the restaurant's printers once they are
 * read (`printers` null: not yet). One removed since is forgotten — the device is back on
 * its print dialog — and `gone` names it until someone chooses again.
 */
export function useDevicePrinter(printers: readonly KioskPrinter[] | null, remembered: DevicePrinter | null, remember: (p: DevicePrinter | null) => void) {
  const missing = printers !== null && remembered !== null && !printers.some((p) => p.id === remembered.id) ? remembered.name : null;
  const { gone, choose } = useForgottenChoice(missing, remember);
  return { chosen: missing !== null ? null : remembered, gone, choose };
}

/**
 * "Printer: Counter (automatic) — ready | Counter — ready | …" — where this device's tickets
 * print, remembered on the device like its series. Choosing none, they print where the
 * server sends them (printerForOrder: the printer of the device's series or of the kiosk
 * channel), and only without one on this screen's print dialog: the first option says which.
 * Nothing to choose while the restaurant has no printer.
 */
export function PrinterPicker({
  printers,
  chosen,
  seriesId,
  onChange,
}: {
  printers: readonly KioskPrinter[] | null;
  chosen: DevicePrinter | null;
  /** The series this device's numbers come from (DEFAULT_SERIES_ID for the default). */
  seriesId: string;
  onChange: (p: DevicePrinter | null) => void;
}) {
  const t = useTranslations("kiosk.printing");
  if (!printers || printers.length === 0) return null;
  const routedId = printerForOrder(printers, { channel: "kiosk", seriesId }, null);
  const routed = printers.find((p) => p.id === routedId) ?? null;
  return (
    <div className="flex items-center gap-3 print:hidden">
      <label htmlFor="printer-picker" className="text-base font-semibold text-slate-700">
        {t("label")}
      </label>
      <select
        id="printer-picker"
        data-testid="printer-picker"
        value={chosen?.id ?? ""}
        onChange={(e) => {
          const p = printers.find((x) => x.id === e.target.value);
          onChange(p ? { id: p.id, name: p.name } : null);
        }}
        className="min-h-11 max-w-[28rem] rounded-lg border-2 border-slate-500 bg-white px-3 py-2 text-lg font-semibold text-slate-900 focus:border-blue-700 focus:ring-4 focus:ring-blue-200 focus:outline-none"
      >
        <option value="">{routed ? t("automatic", { name: routed.name, state: printerState(t, routed.status) }) : t("dialog")}</option>
        {printers.map((p) => (
          <option key={p.id} value={p.id}>
            {t("option", { name: p.name, state: printerState(t, p.status) })}
          </option>
        ))}
      </select>
    </div>
  );
}
