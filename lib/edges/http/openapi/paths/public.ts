/** What anyone may ask: the board, its voice clips, health, readiness; the contract itself; metrics (operator's token). */
import { z } from "zod";
import type { ZodOpenApiPathsObject, ZodOpenApiResponseObject } from "zod-openapi";
import { LOCALES } from "@/lib/core/locales";
import { CLIP_NAME, CLIP_NUMBER_ONLY } from "../../voice.server";
import { boardSchema } from "../schemas/orders";
import { healthSchema, readinessSchema } from "../schemas/ops";
import { errorBodySchema } from "../errors";
import { noStore } from "../headers";
import { jsonResponse, operation } from "../operation";
import { slug } from "./params";

const locale = z.enum(LOCALES).meta({ description: "The language of the voice." });

const wav: ZodOpenApiResponseObject = {
  description: "The clip (eSpeak NG), the same audio for everyone: cached for a year.",
  content: { "audio/wav": { schema: z.string().meta({ contentMediaType: "audio/wav" }) } },
  headers: z.object({
    "X-Voice-Cache": z.enum(["hit", "board", "miss"]).meta({
      description:
        "`hit`: the node had it rendered already; `board`: a number boards call now (made ready or called again), rendered in the board's lane ahead of other clips and not charged to the client; `miss`: rendered for this request.",
    }),
    "Cache-Control": z.string().meta({ example: "public, max-age=31536000, immutable" }),
  }),
};

export const publicPaths: ZodOpenApiPathsObject = {
  "/api/v1/orgs/{slug}/board": {
    get: operation("get", {
      operationId: "getBoard",
      tag: "Board",
      summary: "What the dining-room board shows",
      description: "Every open order: `preparing` oldest first, `ready` most recently ready first (for `readyClearMinutes`).",
      access: "public",
      path: z.object({ slug }),
      ok: { 200: jsonResponse("The board.", boardSchema, noStore) },
    }),
  },
  "/api/v1/orgs/{slug}/voice/{locale}/{clip}": {
    get: operation("get", {
      operationId: "getVoiceClip",
      tag: "Board",
      summary: "A spoken number (the board's fallback voice)",
      description:
        "Only a number an open order of the restaurant shows is rendered (any other is 404 unless cached). Once the restaurant's clips are asked for in a language, each number it makes ready or calls again is rendered ahead in it on every node and kept while the board shows it, so a board's request is a cache hit. Other held numbers: 429 while this address has a clip rendering or asks for too many new ones; 503 with `Retry-After` while the node's queue for such renders is full. 404 with `VOICE_FALLBACK=off`. Refusals are `no-store`.",
      access: "public",
      path: z.object({
        slug,
        locale,
        clip: z
          .string()
          .regex(CLIP_NAME)
          .meta({ description: "`{display}.wav`: the number as the board shows it, e.g. `42.wav`, `K12.wav`.", example: "K12.wav" }),
      }),
      ok: { 200: wav },
    }),
  },
  "/api/v1/voice/{locale}/{clip}": {
    get: operation("get", {
      operationId: "getVoiceClipDeprecated",
      tag: "Board",
      summary: "A spoken number (deprecated route)",
      description:
        "What board pages loaded before the route with the restaurant ask for: numbers only. A cached clip is served; otherwise only when `Referer` is a board page whose restaurant has an open order with that number. Anything else is 404 naming the new route.",
      deprecated: true,
      access: "public",
      path: z.object({
        locale,
        clip: z.string().regex(CLIP_NUMBER_ONLY).meta({ description: "`{number}.wav`.", example: "42.wav" }),
      }),
      ok: { 200: wav },
    }),
  },
  "/api/health": {
    get: operation("get", {
      operationId: "getHealth",
      tag: "Operations",
      summary: "Liveness",
      description:
        "200 whenever the process answers (`degraded`: a dependency is down), from a reading of the dependencies at most a second old (`checkedAt`). Limited per client address on each node (`PROBE_REQUESTS_PER_SECOND`, default 20). Takes any query parameters.",
      access: "operators",
      errors: [429],
      ok: { 200: jsonResponse("This node and its dependencies at a glance.", healthSchema, noStore) },
    }),
  },
  "/api/ready": {
    get: operation("get", {
      operationId: "getReadiness",
      tag: "Operations",
      summary: "Readiness, for load balancers",
      description:
        "503 with `failing` while the database or (with READY_REQUIRES_REDIS) Redis is down, a migration is pending, or the node is stopping (at once). The dependencies are read at most once a second per node and the reading shared (`checkedAt`). Limited per client address on each node (`PROBE_REQUESTS_PER_SECOND`, default 20). Takes any query parameters.",
      access: "operators",
      errors: [429],
      ok: {
        200: jsonResponse("Ready.", readinessSchema, noStore),
        503: {
          description: "Not ready (`status: unready`, `failing` names the checks), or the node is still starting (the error contract).",
          content: { "application/json": { schema: z.union([readinessSchema, errorBodySchema]) } },
        },
      },
    }),
  },
  "/api/metrics": {
    get: operation("get", {
      operationId: "getMetrics",
      tag: "Operations",
      summary: "Prometheus metrics of this node",
      description: "404 while `METRICS_TOKEN` is unset. Takes any query parameters.",
      access: "metrics",
      ok: { 200: { description: "Prometheus text exposition.", content: { "text/plain": { schema: z.string() } } } },
    }),
  },
  "/api/v1/openapi.json": {
    get: operation("get", {
      operationId: "getOpenApiDocument",
      tag: "Operations",
      summary: "This contract",
      description:
        "The OpenAPI 3.1 document of the REST API (generate a client from it). Cacheable (`ETag`, `Cache-Control: public, max-age=300`; `If-None-Match` answers 304) and compressed (br or gzip) when `Accept-Encoding` allows.",
      access: "anyone",
      ok: {
        200: { description: "The OpenAPI document.", content: { "application/json": { schema: z.looseObject({ openapi: z.string() }) } } },
        304: { description: "The document is the one named by `If-None-Match` (no body)." },
      },
    }),
  },
};
