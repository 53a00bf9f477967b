/**
 * Runs in server.ts before Next.js handles a request: a `?lang=en|zh-CN` in the URL is
 * remembered on the device (cookie) and passed to lib/i18n/request.ts with the path, so
 * the page renders in that language at once. Headers of the same names sent by a client
 * are dropped.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { asLocale } from "@/lib/core/locales";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, LOCALE_HEADER, PATH_HEADER } from "./language-header";

export function applyLanguage(req: IncomingMessage, res: ServerResponse): void {
  delete req.headers[LOCALE_HEADER];
  delete req.headers[PATH_HEADER];
  const raw = req.url ?? "/";
  const q = raw.indexOf("?");
  const path = q === -1 ? raw : raw.slice(0, q);
  req.headers[PATH_HEADER] = path;
  if (q === -1) return;
  const locale = asLocale(new URLSearchParams(raw.slice(q + 1)).get("lang"));
  if (!locale) return;
  req.headers[LOCALE_HEADER] = locale;
  res.appendHeader("Set-Cookie", `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE}; SameSite=Lax`);
}
