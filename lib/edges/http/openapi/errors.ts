/**
 * The error contract in the OpenAPI document: `{"error":{"code","message","details?"}}`,
 * one response per status, each allowing only the codes lib/core/errors.ts maps to it.
 */
import { z } from "zod";
import type { ZodOpenApiResponseObject } from "zod-openapi";
import { ERROR_STATUS, type ErrorCode } from "@/lib/core/errors";
import { rateLimitHeaders } from "./headers";

const codesOf = (status: number) => (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((c) => ERROR_STATUS[c] === status);

/** Every error body, whatever the status. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string().min(1).meta({ description: "Safe to show to people; names the bad field when there is one." }),
      details: z.unknown().optional().meta({ description: "Structured detail, e.g. `fields: [{ path, message }]` of a bad body." }),
    }),
  })
  .meta({ id: "Error" });

const bodyOf = (status: number, id: string) => {
  const [first, ...rest] = codesOf(status);
  return z
    .object({
      error: z.object({
        code: z.enum([first!, ...rest]),
        message: z.string().min(1),
        details: z.unknown().optional(),
      }),
    })
    .meta({ id, description: `The error contract with the codes of ${status}: ${codesOf(status).join(", ")}.` });
};

const response = (status: number, id: string, description: string, extra: Partial<ZodOpenApiResponseObject> = {}): ZodOpenApiResponseObject => ({
  id,
  description,
  content: { "application/json": { schema: bodyOf(status, `${id}Error`) } },
  ...extra,
});

/** The error responses, by status: operations list the ones they can answer. */
export const ERROR_RESPONSES = {
  400: response(
    400,
    "BadInput",
    "A bad body, header, path or query parameter, an unknown query parameter, or a body where none is taken; `message` names the field. Nothing was stored.",
  ),
  401: response(401, "Unauthenticated", "No key, or an unknown or revoked key."),
  403: response(403, "Forbidden", "The key belongs to another restaurant, or its role may not do this."),
  404: response(404, "NotFound", "An unknown restaurant, or an unknown id (another restaurant's ids are unknown too)."),
  405: response(405, "MethodNotAllowed", "The endpoint does not take this method; `Allow` lists those it takes.", {
    headers: z.object({ Allow: z.string().meta({ description: "The methods this path takes." }) }),
  }),
  408: response(408, "RequestTimeout", "The request did not arrive in time."),
  409: response(
    409,
    "Conflict",
    "The request conflicts with the current state (`CONFLICT`), or every number of the order's series is still open (`SERIES_FULL`). Nothing was stored.",
  ),
  413: response(413, "PayloadTooLarge", "A body over 16 KiB."),
  429: response(429, "RateLimited", "Too many requests: wait `Retry-After` seconds. Nothing was stored.", {
    headers: z.object({
      "Retry-After": z.string().meta({ description: "Seconds to wait." }),
      ...rateLimitHeaders.shape,
    }),
  }),
  431: response(431, "HeadersTooLarge", "The request's headers are over 16 KiB."),
  500: response(500, "Internal", "A bug: logged with details; the answer has none."),
  503: response(
    503,
    "Unavailable",
    "A dependency (PostgreSQL, Redis) is down, the node is starting or stopping, or numbers cannot come from the database while a failover cannot be ruled out (decision 0032); nothing was stored. Retry (with the same `Idempotency-Key`).",
    {
      headers: z.object({
        "Retry-After": z.string().optional().meta({
          description:
            "`1` when a dependency is down or the node is starting (the next attempt may find it up), or the node is stopping (the next connection reaches another node).",
        }),
      }),
    },
  ),
} as const;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;
