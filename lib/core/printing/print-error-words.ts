/**
 * The sentences the printing code stores in `lastError` (in English, for the API and the
 * operator's log) as a screen says them in its own language: a message key and its values,
 * or null for a sentence only the operator's detailed errors produce (shown as stored). Pure.
 */
import { PRINTER_DID_NOT_ANSWER } from "./printer-status";
import { MAYBE_PRINTED } from "./print-drainer";

export type PrintErrorWords =
  { key: "didNotAnswer" | "maybePrinted" } | { key: "notPrintedWithin"; values: { minutes: number } } | { key: "tooManyWaiting"; values: { count: number } };

export function printErrorWords(stored: string): PrintErrorWords | null {
  if (stored === PRINTER_DID_NOT_ANSWER) return { key: "didNotAnswer" };
  if (stored === MAYBE_PRINTED) return { key: "maybePrinted" };
  const within = /^not printed within (\d+) minutes?$/.exec(stored);
  if (within) return { key: "notPrintedWithin", values: { minutes: Number(within[1]) } };
  const waiting = /^not printed: (\d+) print jobs were already waiting for this restaurant's printers$/.exec(stored);
  if (waiting) return { key: "tooManyWaiting", values: { count: Number(waiting[1]) } };
  return null;
}
