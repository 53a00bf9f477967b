/**
 * next-intl's per-request configuration (see next.config.js): the language of this
 * request, its messages and time zone. Language: `?lang=` (server.ts), this device's
 * cookie, the restaurant's default, the browser's Accept-Language, English.
 */
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { asLocale, pickLocale } from "@/lib/core/locales";
import type { Tenant } from "@/lib/core/tenants";
import { getApp } from "@/lib/server/app-context";
import { LOCALE_COOKIE, LOCALE_HEADER, PATH_HEADER } from "@/lib/server/http/language-header";
import { messagesFor } from "./messages";

/** The restaurant a path belongs to (/demo/board → demo), if any: its language and time zone are the defaults. */
async function tenantOf(path: string | null): Promise<Tenant | null> {
  const slug = path?.split("/")[1];
  if (!slug || slug === "api" || slug.startsWith("_")) return null;
  try {
    return await getApp().tenants.find(slug);
  } catch {
    return null;
  }
}

export default getRequestConfig(async () => {
  const [h, c] = await Promise.all([headers(), cookies()]);
  const query = asLocale(h.get(LOCALE_HEADER));
  const remembered = query ? null : (c.get(LOCALE_COOKIE)?.value ?? null);
  const tenant = await tenantOf(h.get(PATH_HEADER));
  const locale = pickLocale({ query, remembered, tenantDefault: tenant?.floor.language, acceptLanguage: h.get("accept-language") });
  // Times on a restaurant's screens are in its own zone, whatever the device says.
  return { locale, messages: messagesFor(locale), timeZone: tenant?.timeZone ?? "UTC" };
});
