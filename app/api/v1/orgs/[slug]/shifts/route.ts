import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { queryOf } from "@/lib/edges/http/reports.server";
import { shiftHistoryJson } from "@/lib/edges/http/report-json";
import type { z } from "zod";
import type { shiftStartSchema } from "@/lib/edges/http/openapi/schemas/orders";

/**
 * Start a new shift now (the manual reset): the next order gets number 1, or
 * `firstNumber`. With `ifCurrentShift`, a reset that someone else already did is not
 * repeated (200 with the existing shift instead of 201). `openOrders: "clear"` takes the
 * orders still open from earlier shifts off the floor; by default they stay.
 */
export const POST = api<{ slug: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  const { shift, created, cleared, nextNumber } = await app.shifts.start(caller.tenant, await readJson(req), caller.actor, caller.by);
  return json(
    {
      businessDay: shift.businessDay,
      shift: shift.shift,
      firstNumber: shift.firstNumber,
      nextNumber,
      startedAt: shift.startedAt.toISOString(),
      startedBy: shift.startedBy,
      reason: shift.reason,
      created,
      cleared,
    } satisfies z.output<typeof shiftStartSchema>,
    created ? 201 : 200,
  );
});

/** The shifts of a business day (default: the current one), shift 1 included, with their orders and last number. */
export const GET = api<{ slug: string }>({ query: { day: "one" } }, async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(shiftHistoryJson(await app.reports.history(tenant, queryOf(req, ["day"]))));
});
