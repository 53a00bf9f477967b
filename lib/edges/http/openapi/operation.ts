/**
 * One API operation of the contract, described once: who may call it, what it takes and
 * what it answers. The error responses every operation of its kind can give (a refused
 * query parameter, a key's 401/403/429, the body limit, a dependency down…) are added here,
 * so a route lists only its own (404 of an id, 409…).
 */
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from "zod-openapi";
import type { StaffRole } from "@/lib/core/tenants";
import { ERROR_RESPONSES, type ErrorStatus } from "./errors";
import { rateLimitHeaders } from "./headers";

/** Who may call: API keys of these roles (a manager's key may do everything), the public, or operators. */
/** "public": the board's routes (the public limit, a restaurant that may be unknown); "anyone": no key, no limit. */
/** `session`: also a signed-in screen's cookie — the manager's console's, or a staff screen's of the same roles. */
export type Access = { roles: readonly StaffRole[]; session?: "manager" | "staff" } | "public" | "anyone" | "operators" | "metrics";

export type Method = "get" | "post" | "put" | "patch" | "delete";

export interface OperationSpec {
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  path?: z.ZodObject;
  query?: z.ZodObject;
  header?: z.ZodObject;
  /** The JSON body the handler validates (the core's zod schema). */
  body?: z.ZodType;
  /** Successful answers by status. */
  ok: Record<number, ZodOpenApiResponseObject>;
  /** Errors of this operation beyond those of its kind. */
  errors?: readonly ErrorStatus[];
  deprecated?: boolean;
}

export const SECURITY_SCHEMES = {
  apiKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "nxu_<mgr|csh|kit>_<prefix>_<secret>",
    description:
      "A restaurant's API key, of one role: MANAGER, CASHIER or KITCHEN. A manager's key may do everything; an operation's security requirement lists the roles whose keys it takes.",
  },
  managerSession: { type: "apiKey", in: "cookie", name: "nextup_session", description: "The manager's console session (the CSV download link)." },
  staffSession: {
    type: "apiKey",
    in: "cookie",
    name: "nextup_session",
    description: "A staff screen's session (the kitchen screen's sold-out toggle); the requirement lists the roles whose sessions it takes.",
  },
  metricsToken: { type: "http", scheme: "bearer", description: "The operator's `METRICS_TOKEN`." },
} as const;

const rolesOf = (roles: readonly StaffRole[]): StaffRole[] => ["MANAGER", ...roles.filter((r) => r !== "MANAGER")];

function securityOf(access: Access): ZodOpenApiOperationObject["security"] {
  if (access === "public" || access === "anyone" || access === "operators") return [];
  if (access === "metrics") return [{ metricsToken: [] }];
  const keyed = [{ apiKey: rolesOf(access.roles) }];
  if (access.session === "manager") return [...keyed, { managerSession: [] }];
  return access.session === "staff" ? [...keyed, { staffSession: rolesOf(access.roles) }] : keyed;
}

/** The errors any operation of this kind can answer, whatever its route does. */
function errorsOf(method: Method, access: Access): ErrorStatus[] {
  // 400: an unknown query parameter or an unwanted body; 408/431/500/503: the server's own.
  const all: ErrorStatus[] = [400, 408, 431, 500, 503];
  if (method !== "get") all.push(413);
  if (typeof access === "object") all.push(401, 403, 404, 429);
  if (access === "public") all.push(404, 429);
  if (access === "metrics") all.push(401, 403, 404, 429);
  return all;
}

function accessText(access: Access): string {
  if (access === "public" || access === "anyone") return "Public: no key.";
  if (access === "operators") return "For operators and load balancers: no key.";
  if (access === "metrics") return "`Authorization: Bearer $METRICS_TOKEN`.";
  const roles = rolesOf(access.roles).join(", ");
  const session =
    access.session === "manager" ? ", or the manager's console session" : access.session === "staff" ? `, or a staff session of role ${roles}` : "";
  return `API key of role ${roles}${session}.`;
}

export function operation(method: Method, spec: OperationSpec): ZodOpenApiOperationObject {
  const keyed = typeof spec.access === "object";
  const ok = Object.fromEntries(
    Object.entries(spec.ok).map(([status, res]) => [
      status,
      // Every answer to a request counted against a key says what is left of its limit.
      keyed ? { ...res, headers: res.headers instanceof z.ZodObject ? res.headers.extend(rateLimitHeaders.shape) : rateLimitHeaders } : res,
    ]),
  );
  const statuses = [...new Set([...errorsOf(method, spec.access), ...(spec.errors ?? [])])].sort((a, b) => a - b);
  const errors = Object.fromEntries(statuses.map((s) => [String(s), ERROR_RESPONSES[s]]));
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: [spec.description, accessText(spec.access)].filter(Boolean).join("\n\n"),
    ...(spec.deprecated ? { deprecated: true } : {}),
    security: securityOf(spec.access),
    ...(spec.path || spec.query || spec.header
      ? { requestParams: { ...(spec.path && { path: spec.path }), ...(spec.query && { query: spec.query }), ...(spec.header && { header: spec.header }) } }
      : {}),
    ...(spec.body ? { requestBody: { required: false, content: { "application/json": { schema: spec.body } } } } : {}),
    responses: { ...errors, ...ok },
  };
}

/** A JSON answer. */
export const jsonResponse = (description: string, schema: z.ZodType, headers?: z.ZodObject): ZodOpenApiResponseObject => ({
  description,
  content: { "application/json": { schema } },
  ...(headers ? { headers } : {}),
});
