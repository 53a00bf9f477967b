/** The restaurant's setup beyond the menu: number series, printers and their jobs, webhooks and their deliveries. */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { newSeriesSchema, seriesPatchSchema } from "@/lib/core/series";
import { newPrinterSchema, printerPatchSchema } from "@/lib/core/printing/printers";
import { jobsQuerySchema } from "@/lib/core/printing/printer-service";
import { deliveriesQuerySchema, newWebhookSchema, webhookPatchSchema } from "@/lib/core/webhooks/webhook-service";
import { listedSeriesJsonSchema, seriesJsonSchema } from "../../series-json";
import { printerJsonSchema, printJobJsonSchema } from "../../printer-json";
import { deliveryJsonSchema, webhookJsonSchema, webhookWithSecretSchema } from "../../webhook-json";
import { pingQueuedSchema } from "../schemas/console";
import { noStore } from "../headers";
import { jsonResponse, operation } from "../operation";
import { byId, inTenant } from "./params";

const manager = { roles: ["MANAGER"] } as const;

export const setupPaths: ZodOpenApiPathsObject = {
  "/api/v1/orgs/{slug}/series": {
    get: operation("get", {
      operationId: "listSeries",
      tag: "Series",
      summary: "The number series, the default first",
      access: manager,
      path: inTenant,
      ok: { 200: jsonResponse("The series.", z.object({ series: z.array(listedSeriesJsonSchema) }).meta({ id: "SeriesList" })) },
    }),
    post: operation("post", {
      operationId: "createSeries",
      tag: "Series",
      summary: "Add a number series",
      access: manager,
      path: inTenant,
      body: newSeriesSchema,
      ok: { 201: jsonResponse("The series.", seriesJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/series/{id}": {
    patch: operation("patch", {
      operationId: "updateSeries",
      tag: "Series",
      summary: "Change a series",
      description:
        "Orders already taken keep their numbers. The default series is fixed (409). At least one field (`{}` is 400, as for a printer); fields sent as they already are answer 200 and write no audit entry.",
      access: manager,
      path: byId,
      body: seriesPatchSchema,
      ok: { 200: jsonResponse("The series.", seriesJsonSchema) },
      errors: [409],
    }),
    delete: operation("delete", {
      operationId: "deleteSeries",
      tag: "Series",
      summary: "Retire a series",
      description: "Its channels go back to the default series. The default series is fixed (409).",
      access: manager,
      path: byId,
      ok: { 200: jsonResponse("The series as it was.", seriesJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/printers": {
    get: operation("get", {
      operationId: "listPrinters",
      tag: "Printers",
      summary: "The network printers, with their status and waiting jobs",
      description:
        "One `Printer` schema for every key: `host`, `port` and `lastError` are there for a manager's key only (a cashier's key sees names and status).",
      access: { roles: ["CASHIER"] },
      path: inTenant,
      ok: { 200: jsonResponse("The printers.", z.object({ printers: z.array(printerJsonSchema) }).meta({ id: "PrinterList" })) },
    }),
    post: operation("post", {
      operationId: "createPrinter",
      tag: "Printers",
      summary: "Add a printer",
      description:
        "Its address must be in the operator's PRINTER_NETWORKS and PRINTER_PORTS (else 400, reason `printerRefused`: one sentence per refusal — printing off, port not allowed, address not allowed — never naming a resolved address); an address is one restaurant's unless the operator sets PRINTER_SHARED_ADDRESSES=allow (else the same 400); names are unique (409); a restaurant has at most PRINTERS_PER_RESTAURANT printers (409, reason `tooManyPrinters`).",
      access: manager,
      path: inTenant,
      body: newPrinterSchema,
      ok: { 201: jsonResponse("The printer.", printerJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/printers/{id}": {
    patch: operation("patch", {
      operationId: "updatePrinter",
      tag: "Printers",
      summary: "Change a printer",
      access: manager,
      path: byId,
      body: printerPatchSchema,
      ok: { 200: jsonResponse("The printer.", printerJsonSchema) },
      errors: [409],
    }),
    delete: operation("delete", {
      operationId: "deletePrinter",
      tag: "Printers",
      summary: "Remove a printer and its waiting jobs",
      access: manager,
      path: byId,
      ok: { 200: jsonResponse("The printer as it was; `queued`: the jobs that went with it.", printerJsonSchema) },
    }),
  },
  "/api/v1/orgs/{slug}/printers/{id}/test": {
    post: operation("post", {
      operationId: "printTestPage",
      tag: "Printers",
      summary: "Print a test page",
      description: "429 (reason `tooManyPrintJobs`) when the restaurant already has PRINT_JOBS_WAITING_PER_RESTAURANT jobs waiting: nothing is queued.",
      access: manager,
      path: byId,
      ok: { 202: jsonResponse("The job, queued.", printJobJsonSchema) },
    }),
  },
  "/api/v1/orgs/{slug}/print-jobs": {
    get: operation("get", {
      operationId: "listPrintJobs",
      tag: "Printers",
      summary: "The latest print jobs, newest first",
      access: { roles: ["CASHIER"] },
      path: inTenant,
      query: jobsQuerySchema,
      ok: { 200: jsonResponse("The jobs.", z.object({ jobs: z.array(printJobJsonSchema) }).meta({ id: "PrintJobList" })) },
    }),
  },
  "/api/v1/orgs/{slug}/webhooks": {
    get: operation("get", {
      operationId: "listWebhooks",
      tag: "Webhooks",
      summary: "The webhook endpoints",
      access: manager,
      path: inTenant,
      ok: { 200: jsonResponse("The endpoints, newest first; never a secret.", z.object({ webhooks: z.array(webhookJsonSchema) }).meta({ id: "WebhookList" })) },
    }),
    post: operation("post", {
      operationId: "createWebhook",
      tag: "Webhooks",
      summary: "Add a webhook endpoint",
      description: "A URL that is or resolves to a private, loopback, link-local or metadata address is 400 (`details.problem`); at most 20 endpoints (409).",
      access: manager,
      path: inTenant,
      body: newWebhookSchema,
      ok: { 201: jsonResponse("The endpoint and its signing secret (in this answer only).", webhookWithSecretSchema, noStore) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/webhooks/{id}": {
    patch: operation("patch", {
      operationId: "updateWebhook",
      tag: "Webhooks",
      summary: "Change an endpoint's URL or events",
      access: manager,
      path: byId,
      body: webhookPatchSchema,
      ok: { 200: jsonResponse("The endpoint; its secret stays.", webhookJsonSchema) },
    }),
    delete: operation("delete", {
      operationId: "deleteWebhook",
      tag: "Webhooks",
      summary: "Delete an endpoint and its pending messages",
      access: manager,
      path: byId,
      ok: { 200: jsonResponse("The endpoint as it was.", webhookJsonSchema) },
    }),
  },
  "/api/v1/orgs/{slug}/webhooks/{id}/secret": {
    post: operation("post", {
      operationId: "rotateWebhookSecret",
      tag: "Webhooks",
      summary: "A new signing secret",
      description: "The old secret stops at once: retries of queued messages are signed with the new one.",
      access: manager,
      path: byId,
      ok: { 200: jsonResponse("The endpoint and its new secret (in this answer only).", webhookWithSecretSchema, noStore) },
    }),
  },
  "/api/v1/orgs/{slug}/webhooks/{id}/ping": {
    post: operation("post", {
      operationId: "pingWebhook",
      tag: "Webhooks",
      summary: "Send a test message (`ping`)",
      access: manager,
      path: byId,
      ok: { 202: jsonResponse("Queued; its outcome shows in the endpoint's deliveries.", pingQueuedSchema) },
    }),
  },
  "/api/v1/orgs/{slug}/webhooks/{id}/deliveries": {
    get: operation("get", {
      operationId: "listWebhookDeliveries",
      tag: "Webhooks",
      summary: "An endpoint's latest messages, newest first",
      access: manager,
      path: byId,
      query: deliveriesQuerySchema,
      ok: { 200: jsonResponse("The deliveries.", z.object({ deliveries: z.array(deliveryJsonSchema) }).meta({ id: "WebhookDeliveryList" })) },
    }),
  },
};
