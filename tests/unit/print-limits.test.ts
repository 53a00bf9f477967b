/** The refusals of a restaurant's print limits (decision 0039) read as one sentence in each language, naming the limit. */
import { describe, expect, it } from "vitest";
import { createTranslator } from "use-intl/core";
import type { AppError } from "@/lib/core/errors";
import { LOCALES } from "@/lib/core/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { tooManyPrinters, tooManyWaiting } from "@/lib/core/printing/print-limits";

const said = (locale: (typeof LOCALES)[number], e: AppError) =>
  createTranslator({ locale, messages: messagesFor(locale), namespace: "common.errors.reasons" })(
    e.reason as "tooManyPrinters",
    e.details as Record<string, number>,
  );

describe("print limits' refusals", () => {
  it("are 409 for one printer too many and 429 for one job too many, the same sentence in English as the API's, and said in Chinese", () => {
    const printers = tooManyPrinters(20);
    const waiting = tooManyWaiting(200);
    expect([printers.httpStatus, waiting.httpStatus]).toEqual([409, 429]);
    expect(said("en", printers)).toBe(printers.userMessage);
    expect(said("en", waiting)).toBe(waiting.userMessage);
    expect(said("zh-CN", printers)).toBe("每家餐厅最多可有 20 台打印机：请先删除一台。");
    expect(said("zh-CN", waiting)).toBe("本餐厅的打印机已有 200 个打印任务在等待：请等其中一些打印完成，或检查打印机。");
  });
});
