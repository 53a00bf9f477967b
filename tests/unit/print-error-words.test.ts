/**
 * The sentences printing stores in `lastError` read in the console's language: each one the
 * code writes is known (a message key with its values), and both languages word it.
 */
import { describe, expect, it } from "vitest";
import { createTranslator } from "next-intl";
import { printErrorWords } from "@/lib/core/printing/print-error-words";
import { PRINTER_DID_NOT_ANSWER } from "@/lib/core/printing/printer-status";
import { giveUpReason, MAYBE_PRINTED } from "@/lib/core/printing/print-drainer";
import { waitingFullReason } from "@/lib/core/printing/print-limits";
import en from "@/lib/i18n/messages/en/managerPrinters.json";
import zh from "@/lib/i18n/messages/zh-CN/managerPrinters.json";

const stored = [PRINTER_DID_NOT_ANSWER, MAYBE_PRINTED, giveUpReason(1), giveUpReason(10), waitingFullReason(200)];

describe("print errors in the console's words", () => {
  it("knows every sentence the printing code stores", () => {
    expect(stored.map((s) => printErrorWords(s)?.key)).toEqual(["didNotAnswer", "maybePrinted", "notPrintedWithin", "notPrintedWithin", "tooManyWaiting"]);
    expect(printErrorWords(giveUpReason(10))).toEqual({ key: "notPrintedWithin", values: { minutes: 10 } });
    expect(printErrorWords(waitingFullReason(200))).toEqual({ key: "tooManyWaiting", values: { count: 200 } });
  });

  it("leaves a detailed error (PRINTER_ERRORS=detailed) as it was stored", () => {
    expect(printErrorWords("connection refused (is the printer on?)")).toBeNull();
  });

  it("words each in English and in Chinese, with its values", () => {
    for (const [locale, messages] of [
      ["en", en],
      ["zh-CN", zh],
    ] as const) {
      const t = createTranslator({ locale, messages: { managerPrinters: messages }, namespace: "managerPrinters" });
      for (const s of stored) {
        const words = printErrorWords(s)!;
        const text = "values" in words ? t(`errorWords.${words.key}`, words.values) : t(`errorWords.${words.key}`);
        expect(text).not.toContain("errorWords.");
        if (locale === "zh-CN") expect(text).not.toMatch(/printer|printed/);
        if ("values" in words) expect(text).toContain(String(Object.values(words.values)[0]));
      }
    }
  });
});
