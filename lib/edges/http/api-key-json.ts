import type { ApiKeyInfo } from "@/lib/core/ports";

/** The public JSON form of an API key: never its secret or hash. */
export function apiKeyJson(k: ApiKeyInfo) {
  return {
    id: k.id,
    role: k.role,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    createdBy: k.createdBy,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}
