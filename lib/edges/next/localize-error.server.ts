/**
 * The screens' side of the error contract: an AppError becomes a sentence in the
 * request's language. A failure with a `reason` gets that reason's message (with the
 * error's details as values); any other gets its English `userMessage` on English screens
 * and its code's general message elsewhere.
 */
import { getLocale, getTranslations } from "next-intl/server";
import type { AppError } from "@/lib/core/errors";

export async function localizeError(err: AppError): Promise<string> {
  const [t, locale] = await Promise.all([getTranslations("common.errors"), getLocale()]);
  const key = err.reason ? (`reasons.${err.reason}` as const) : null;
  if (key && t.has(key as Parameters<typeof t.has>[0])) {
    const values = typeof err.details === "object" && err.details !== null ? (err.details as Record<string, string | number>) : {};
    return t(key as Parameters<typeof t>[0], values);
  }
  return locale === "en" ? err.userMessage : t(err.code);
}
