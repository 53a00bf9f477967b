/** Orders and shifts: take, list, find, move, call again, reprint; start a shift. */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { idempotencyKeySchema, newOrderSchema, statusChangeSchema } from "@/lib/core/orders";
import { orderJsonSchema, orderWithHistoryJsonSchema } from "@/lib/core/order-json";
import { numberQuerySchema } from "@/lib/core/reports/report-queries";
import { reprintSchema } from "@/lib/core/printing/printer-service";
import { startShiftSchema } from "@/lib/core/shift-service";
import { printJobJsonSchema } from "../../printer-json";
import { shiftHistorySchema } from "../../report-json";
import { dayQuerySchema } from "@/lib/core/reports/report-queries";
import { orderListSchema, ordersByNumberSchema, shiftStartSchema } from "../schemas/orders";
import { jsonResponse, operation } from "../operation";
import { byId, inTenant } from "./params";

const TAG = "Orders";

export const orderPaths: ZodOpenApiPathsObject = {
  "/api/v1/orgs/{slug}/orders": {
    post: operation("post", {
      operationId: "createOrder",
      tag: TAG,
      summary: "Take an order",
      description:
        "201 with its number. The same `Idempotency-Key` from the same API key within the business day returns the same order with `Idempotent-Replayed: true`; reused for a different order it is 409. A series whose every number is open is 409 `SERIES_FULL`; a sold-out menu item 409. `series` may name the default series, a series serving no channel, or one serving the order's `channel` — another is 400 naming `series` (reason `seriesNotForChannel`), before a number is spent.",
      access: { roles: ["CASHIER"] },
      path: inTenant,
      header: z.object({ "idempotency-key": idempotencyKeySchema.optional().meta({ description: "Makes retries safe: 1–200 printable ASCII characters." }) }),
      body: newOrderSchema,
      ok: {
        201: jsonResponse(
          "The order, stored (or the one this Idempotency-Key took before).",
          orderJsonSchema,
          z.object({ "Idempotent-Replayed": z.literal("true").optional().meta({ description: "The order this key took before: nothing new was stored." }) }),
        ),
      },
      errors: [409],
    }),
    get: operation("get", {
      operationId: "listOrders",
      tag: TAG,
      summary: "The current shift's orders, or a number's orders",
      description:
        "`status` (repeated or comma-separated, any case) filters; asked for open orders only it lists every open order on the floor. With `number` (and `day`), a manager's search: every order of that day showing that number.",
      access: { roles: ["CASHIER", "KITCHEN"] },
      path: inTenant,
      query: z.object({
        status: z
          .array(z.string())
          .optional()
          .meta({ description: "PLACED, READY, COLLECTED, CANCELLED: repeated, or comma-separated.", example: ["PLACED,READY"] }),
        number: numberQuerySchema.shape.number.optional().meta({ description: "The number as shown (`12`, `K12`): manager only." }),
        day: numberQuerySchema.shape.day,
      }),
      ok: { 200: jsonResponse("The orders.", z.union([orderListSchema, ordersByNumberSchema])) },
    }),
  },
  "/api/v1/orgs/{slug}/orders/{id}": {
    get: operation("get", {
      operationId: "getOrder",
      tag: TAG,
      summary: "One order, with its history",
      description: "`history`: taken, then every status change, oldest first, each with who made it.",
      access: { roles: ["CASHIER", "KITCHEN"] },
      path: byId,
      ok: { 200: jsonResponse("The order and its history.", orderWithHistoryJsonSchema) },
    }),
  },
  "/api/v1/orgs/{slug}/orders/{id}/status": {
    post: operation("post", {
      operationId: "changeOrderStatus",
      tag: TAG,
      summary: "Move an order",
      description: "Illegal moves (CANCELLED is final; a cleared order cannot move) are 409; the status it already has is a no-op 200.",
      access: { roles: ["KITCHEN"] },
      path: byId,
      body: statusChangeSchema,
      ok: { 200: jsonResponse("The order after the move.", orderJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/orders/{id}/call": {
    post: operation("post", {
      operationId: "callOrderAgain",
      tag: TAG,
      summary: "Call a ready number again",
      description: "Every board of the restaurant calls it once more. An order that is not READY, or was cleared, is 409.",
      access: { roles: ["KITCHEN"] },
      path: byId,
      ok: { 200: jsonResponse("The order, `readyAt` stamped anew.", orderJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/orders/{id}/print": {
    post: operation("post", {
      operationId: "reprintOrder",
      tag: TAG,
      summary: "Print an order's ticket again",
      description:
        "On `printerId`, else the printer its series or channel uses; 409 (reason `noPrinter`) when none is set up; 429 (reason `tooManyPrintJobs`) when the restaurant already has PRINT_JOBS_WAITING_PER_RESTAURANT jobs waiting. At most `REPRINTS_PER_ORDER` (default 5) reprints of an order within a day and `REPRINTS_PER_PRINTER_PER_MINUTE` (default 60) on a printer: beyond them 429 with `Retry-After`, nothing queued.",
      access: { roles: ["CASHIER"] },
      path: byId,
      body: reprintSchema,
      ok: { 202: jsonResponse("The print job, queued.", printJobJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/shifts": {
    post: operation("post", {
      operationId: "startShift",
      tag: "Shifts",
      summary: "Start a new shift now",
      description:
        "The next order of the default series gets `firstNumber` (default 1), skipping numbers still open; a series with its own range starts again at its first number. With `ifCurrentShift` a reset someone else already did is not repeated (200).",
      access: { roles: ["MANAGER"] },
      path: inTenant,
      body: startShiftSchema,
      ok: {
        201: jsonResponse("A new shift started.", shiftStartSchema),
        200: jsonResponse("The day is already past `ifCurrentShift`: nothing started, the latest shift.", shiftStartSchema),
      },
    }),
    get: operation("get", {
      operationId: "listShifts",
      tag: "Shifts",
      summary: "A business day's shifts",
      access: { roles: ["MANAGER"] },
      path: inTenant,
      query: dayQuerySchema,
      ok: { 200: jsonResponse("The day's shifts, oldest first.", shiftHistorySchema) },
    }),
  },
};
