import { api } from "@/lib/edges/http/api.server";
import { openApiJson } from "@/lib/edges/http/openapi/document";

/** Public: the OpenAPI 3.1 contract of this API (decision 0030), built once per process and the same for every request. */
export const GET = api<Record<string, never>>({}, async () => {
  return new Response(openApiJson(), { status: 200, headers: { "content-type": "application/json", "Cache-Control": "public, max-age=300" } });
});
