import { api } from "@/lib/edges/http/api.server";
import { cacheableJson } from "@/lib/edges/http/cacheable-json";
import { openApiJson } from "@/lib/edges/http/openapi/document";

/**
 * Public: the OpenAPI 3.1 contract of this API (decision 0030), built once per process and the
 * same for every request: with an ETag, compressed when the client accepts it (decision 0042).
 */
const serve = cacheableJson(openApiJson, "public, max-age=300");

export const GET = api<Record<string, never>>({}, async (req) => serve(req));
