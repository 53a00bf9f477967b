/**
 * What the report endpoints share: the JSON forms of the reports, the query as a plain
 * object, and the CSV endpoint's check that takes a manager API key or, for the console's
 * download link, the manager's session cookie.
 */
import { parse as parseCookies } from "cookie";
import type { DayFigures, ShiftHistory } from "@/lib/core/reports/report-service";
import { SESSION_COOKIE } from "@/lib/auth/session.server";
import type { App } from "@/lib/server/app.server";
import type { Caller } from "@/lib/auth/access.server";
import { authorize, rateLimit } from "./api.server";

/** The named parameters of the request's query (the first value of each). */
export function queryOf(req: Request, names: readonly string[]): Record<string, string | undefined> {
  const params = new URL(req.url).searchParams;
  return Object.fromEntries(names.flatMap((n) => (params.has(n) ? [[n, params.get(n) ?? ""]] : [])));
}

/** A manager, by `Authorization: Bearer` key when one is sent, else by the session cookie. */
export async function authorizeManager(app: App, req: Request, slug: string): Promise<Caller> {
  if (req.headers.get("authorization") !== null) return authorize(app, req, slug, ["MANAGER"]);
  const tenant = await app.tenants.get(slug);
  const caller = await app.access.session(parseCookies(req.headers.get("cookie") ?? "")[SESSION_COOKIE], tenant, ["MANAGER"]);
  await rateLimit(app, `${tenant.id}:${caller.actor}`, app.throttles.api, req);
  return caller;
}

export function shiftHistoryJson(h: ShiftHistory) {
  return {
    businessDay: h.businessDay,
    shifts: h.shifts.map((s) => ({
      shift: s.shift,
      firstNumber: s.firstNumber,
      startedAt: s.startedAt.toISOString(),
      startedBy: s.startedBy,
      reason: s.reason,
      trigger: s.trigger,
      orders: s.orders,
      lastNumber: s.lastNumber,
      // The other number series' (decision 0027): { series, prefix, orders, first, last } with display numbers.
      series: s.series,
    })),
  };
}

export function figuresJson(f: DayFigures) {
  return {
    businessDay: f.businessDay,
    timeZone: f.timeZone,
    totalOrders: f.totalOrders,
    hours: f.hours.map((h) => ({ hour: h.hour, start: h.start.toISOString(), end: h.end.toISOString(), orders: h.orders })),
    shifts: f.shifts,
    series: f.series,
  };
}
