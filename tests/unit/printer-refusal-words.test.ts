/**
 * A refused printer address reads wholly in the console's language (issue #36): the core's
 * refusal carries its code, never an English reason, and each code is a sentence of its own
 * in English and Chinese.
 */
import { describe, expect, it } from "vitest";
import { createTranslator } from "use-intl/core";
import { printerRefused } from "@/lib/core/printing/printer-service";
import { PRINTER_REFUSALS, type PrinterRefusalCode } from "@/lib/core/printing/printer-network";
import { messagesFor } from "@/lib/i18n/messages";

const codes = Object.keys(PRINTER_REFUSALS) as PrinterRefusalCode[];
/** The console's sentence for `code`, as localizeError builds it from the error's details. */
const sentence = (locale: "en" | "zh-CN", code: PrinterRefusalCode) => {
  const err = printerRefused(code, "host", "127.0.0.9 is a loopback address: name it in PRINTER_NETWORKS (127.0.0.9/32)");
  const t = createTranslator({ locale, messages: messagesFor(locale), namespace: "common.errors" });
  return String(t(`reasons.${err.reason}` as never, err.details as never));
};

describe("a refused printer address in the console's language", () => {
  it("Chinese: no English tail, only the variables whoever runs Nextup sets", () => {
    for (const code of codes) {
      const zh = sentence("zh-CN", code);
      expect(zh.replace(/PRINTER_NETWORKS|PRINTER_PORTS|Nextup/g, "")).not.toMatch(/[A-Za-z]{2,}/);
      expect(zh).not.toContain("127.0.0.9");
    }
    expect(new Set(codes.map((c) => sentence("zh-CN", c))).size).toBe(codes.length);
  });

  it("English: the code's sentence, never the operator's detail", () => {
    for (const code of codes) expect(sentence("en", code)).not.toContain("127.0.0.9");
    expect(sentence("en", "off")).toMatch(/off on this server/);
    expect(sentence("en", "notAllowed")).toMatch(/^This printer address is not allowed\./);
  });
});
