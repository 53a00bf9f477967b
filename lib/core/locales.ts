/**
 * The languages every screen, message, ticket and spoken number comes in, and how a
 * request's language is chosen. Framework-free: the Next.js edge feeds it the query,
 * the cookie, the tenant's default and Accept-Language.
 */
export const LOCALES = ["en", "zh-CN"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Exact match, ignoring case ("zh-cn" → "zh-CN"). */
export function asLocale(value: string | null | undefined): Locale | null {
  if (!value) return null;
  const v = value.trim().toLowerCase();
  return LOCALES.find((l) => l.toLowerCase() === v) ?? null;
}

/** The best supported language for an Accept-Language header (any zh → zh-CN, any en → en). */
export function fromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranges = header
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranges) {
    const primary = tag.split("-")[0];
    if (primary === "zh") return "zh-CN";
    if (primary === "en") return "en";
  }
  return null;
}

/**
 * The language of a request: `?lang=` (remembered by the caller), then what this device
 * remembered, then the restaurant's default, then the browser's, then English.
 */
export function pickLocale(from: { query?: string | null; remembered?: string | null; tenantDefault?: string | null; acceptLanguage?: string | null }): Locale {
  return asLocale(from.query) ?? asLocale(from.remembered) ?? asLocale(from.tenantDefault) ?? fromAcceptLanguage(from.acceptLanguage) ?? DEFAULT_LOCALE;
}
