import { pickLocale } from "@/lib/core/locales";
import { api, json, readJson } from "@/lib/edges/http/api.server";
import { LOCALE_COOKIE } from "@/lib/server/http/language-header";

/** The device's remembered language (the `nextup-lang` cookie), if any. */
function rememberedLanguage(req: Request): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === LOCALE_COOKIE) return value.join("=");
  }
  return null;
}

/**
 * Public: a customer's browser asks to be told when this order is ready (decision 0053). The
 * order's id is the capability; the push is written in the page's language (`?lang=`, then as
 * the page picks it: the device's cookie, the restaurant's default, Accept-Language).
 */
export const POST = api<{ slug: string; id: string }>({ body: "json", query: { lang: "one" } }, async (req, { params, app }) => {
  const tenant = await app.tenants.get(params.slug);
  const body = await readJson(req);
  const lang = pickLocale({
    query: new URL(req.url).searchParams.get("lang"),
    remembered: rememberedLanguage(req),
    tenantDefault: tenant.floor.language,
    acceptLanguage: req.headers.get("accept-language"),
  });
  const { id, created } = await app.push.subscribe(tenant, params.id, body, lang);
  return json({ id }, created ? 201 : 200, { "Cache-Control": "no-store" });
});
