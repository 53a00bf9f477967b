/** The manager's console over REST: settings, audit, API keys, staff codes, figures, the CSV export. */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { newApiKeySchema } from "@/lib/core/api-keys";
import { auditQuerySchema } from "@/lib/core/audit-query";
import { dayQuerySchema, rangeQuerySchema } from "@/lib/core/reports/report-queries";
import { settingsUpdateSchema } from "@/lib/core/settings";
import { STAFF_ROLES } from "@/lib/core/tenants";
import { apiKeyJsonSchema } from "../../api-key-json";
import { staffMemberJsonSchema } from "../../staff-json";
import { newStaffMemberSchema, staffMemberUpdateSchema } from "@/lib/core/staff/staff-service";
import { dayFiguresSchema } from "../../report-json";
import { apiKeyCreatedSchema, auditListSchema, settingsSchema, staffCodeSchema } from "../schemas/console";
import { noStore } from "../headers";
import { jsonResponse, operation } from "../operation";
import { byId, inTenant, slug } from "./params";

const manager = { roles: ["MANAGER"] } as const;

export const consolePaths: ZodOpenApiPathsObject = {
  "/api/v1/orgs/{slug}/settings": {
    get: operation("get", {
      operationId: "getSettings",
      tag: "Settings",
      summary: "The restaurant's settings",
      access: manager,
      path: inTenant,
      ok: { 200: jsonResponse("The settings.", settingsSchema) },
    }),
    put: operation("put", {
      operationId: "updateSettings",
      tag: "Settings",
      summary: "Change some settings",
      description:
        "A partial update: only the fields sent change; one bad field and nothing changes (every bad field in `details.fields`). `sharedCodes: false` is refused with `409` while the restaurant has no active manager with a PIN of their own.",
      access: manager,
      path: inTenant,
      body: settingsUpdateSchema,
      ok: { 200: jsonResponse("All the settings after the change.", settingsSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/audit": {
    get: operation("get", {
      operationId: "listAudit",
      tag: "Settings",
      summary: "The audit trail, newest first",
      access: manager,
      path: inTenant,
      query: auditQuerySchema,
      ok: { 200: jsonResponse("The latest entries.", auditListSchema) },
    }),
  },
  "/api/v1/orgs/{slug}/keys": {
    get: operation("get", {
      operationId: "listApiKeys",
      tag: "Access",
      summary: "The API keys, revoked ones included",
      access: manager,
      path: inTenant,
      ok: { 200: jsonResponse("The keys; never a secret.", z.object({ keys: z.array(apiKeyJsonSchema) }).meta({ id: "ApiKeyList" })) },
    }),
    post: operation("post", {
      operationId: "createApiKey",
      tag: "Access",
      summary: "Create an API key",
      access: manager,
      path: inTenant,
      body: newApiKeySchema,
      ok: { 201: jsonResponse("The key: in this answer only.", apiKeyCreatedSchema, noStore) },
    }),
  },
  "/api/v1/orgs/{slug}/keys/{id}": {
    delete: operation("delete", {
      operationId: "revokeApiKey",
      tag: "Access",
      summary: "Revoke an API key",
      description: "Revoking a revoked key gives the same answer.",
      access: manager,
      path: byId,
      ok: { 200: jsonResponse("The key, `revokedAt` set.", apiKeyJsonSchema) },
    }),
  },
  "/api/v1/orgs/{slug}/staff": {
    get: operation("get", {
      operationId: "listStaff",
      tag: "Access",
      summary: "The restaurant's people, those let go included",
      access: manager,
      path: inTenant,
      ok: { 200: jsonResponse("The people; never a PIN.", z.object({ staff: z.array(staffMemberJsonSchema) }).meta({ id: "StaffList" })) },
    }),
    post: operation("post", {
      operationId: "addStaffMember",
      tag: "Access",
      summary: "Add a person who signs in with their own name and PIN",
      description:
        "A PIN is 4–8 digits; one digit repeated (`0000`), digits in a row (`1234`, `4321`) or a pair repeated (`1212`) are refused. Names are unique in the restaurant (case and spacing aside): `409` when taken.",
      access: manager,
      path: inTenant,
      body: newStaffMemberSchema,
      ok: { 201: jsonResponse("The person; never the PIN.", staffMemberJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/staff/{who}": {
    patch: operation("patch", {
      operationId: "updateStaffMember",
      tag: "Access",
      summary: "Change a person: name, role, PIN, or let them go",
      description: "A new PIN, another role or `active: false` ends every session of theirs on every node within seconds; everyone else stays signed in.",
      access: manager,
      path: z.object({ slug, who: z.uuid().meta({ description: "The person's id." }) }),
      body: staffMemberUpdateSchema,
      ok: { 200: jsonResponse("The person after the change.", staffMemberJsonSchema) },
      errors: [404, 409],
    }),
  },
  "/api/v1/orgs/{slug}/staff/{who}/rotate": {
    post: operation("post", {
      operationId: "rotateStaffCode",
      tag: "Access",
      summary: "A new shared sign-in code for a role",
      description: "The old code stops at once and the sessions signed in with it end (people with their own PIN stay signed in).",
      access: manager,
      path: z.object({
        slug,
        who: z.string().meta({ description: "The role: manager, cashier or kitchen (any case).", examples: STAFF_ROLES.map((r) => r.toLowerCase()) }),
      }),
      ok: { 200: jsonResponse("The code: shown once.", staffCodeSchema, noStore) },
    }),
  },
  "/api/v1/orgs/{slug}/stats": {
    get: operation("get", {
      operationId: "getDayFigures",
      tag: "Reports",
      summary: "A business day's figures",
      access: manager,
      path: inTenant,
      query: dayQuerySchema,
      ok: {
        200: jsonResponse(
          "Orders per hour, time to ready and collected per shift and series, and the takings per shift, channel and service.",
          dayFiguresSchema,
        ),
      },
    }),
  },
  "/api/v1/orgs/{slug}/orders.csv": {
    get: operation("get", {
      operationId: "exportOrdersCsv",
      tag: "Reports",
      summary: "Export a date range's orders as CSV",
      description: "Both dates required, `from ≤ to`, at most 93 days. UTF-8 with a byte-order mark, RFC 4180, streamed.",
      access: { roles: ["MANAGER"], session: "manager" },
      path: inTenant,
      query: rangeQuerySchema,
      ok: {
        200: {
          description: "One line per order.",
          content: { "text/csv": { schema: z.string() } },
          headers: z.object({ "Content-Disposition": z.string().meta({ example: 'attachment; filename="my-diner-orders-2026-11-21.csv"' }) }),
        },
      },
    }),
  },
};
