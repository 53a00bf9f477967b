import { CircleCheck, CircleHelp, FileX, PackageOpen, WifiOff, type LucideIcon } from "lucide-react";
import type { useTranslations } from "next-intl";
import type { PrinterStatus } from "@/lib/core/printing/printers";
import { printErrorWords } from "@/lib/core/printing/print-error-words";

/** Each state its own icon and colour; the word beside them says the same (never colour alone). */
const LOOK: Record<PrinterStatus, { icon: LucideIcon; className: string }> = {
  ok: { icon: CircleCheck, className: "border-emerald-700 bg-emerald-50 text-emerald-900" },
  offline: { icon: WifiOff, className: "border-red-700 bg-red-50 text-red-900" },
  paperOut: { icon: FileX, className: "border-red-700 bg-red-50 text-red-900" },
  coverOpen: { icon: PackageOpen, className: "border-red-700 bg-red-50 text-red-900" },
  unknown: { icon: CircleHelp, className: "border-slate-500 bg-slate-50 text-slate-800" },
};

/** A printer's state: an icon and its word, in a coloured badge. */
export function PrinterStatusBadge({ status, label }: { status: PrinterStatus; label: string }) {
  const { icon: Svg, className } = LOOK[status];
  return (
    <span
      data-testid="printer-status"
      data-status={status}
      className={`inline-flex items-center gap-2 rounded-lg border-2 px-3 py-1 text-lg font-bold ${className}`}
    >
      <Svg aria-hidden="true" strokeWidth={2.4} className="size-5 shrink-0" />
      {label}
    </span>
  );
}

/** A stored error in the page's language; one only the operator's detailed errors write is shown as stored. */
export function errorInWords(t: ReturnType<typeof useTranslations<"managerPrinters">>, stored: string): string {
  const words = printErrorWords(stored);
  if (!words) return stored;
  return "values" in words ? t(`errorWords.${words.key}`, words.values) : t(`errorWords.${words.key}`);
}
