import { z } from "zod";
import { STAFF_ROLES } from "@/lib/core/tenants";
import type { ApiKeyInfo } from "@/lib/core/ports";

/** An API key on the wire (the OpenAPI contract's `ApiKey`): never its secret or hash. */
export const apiKeyJsonSchema = z
  .object({
    id: z.string(),
    role: z.enum(STAFF_ROLES),
    name: z.string(),
    prefix: z.string().meta({ description: "The 16 hex characters after `nxu_<role>_` in the key (8 for keys of early releases)." }),
    createdAt: z.iso.datetime(),
    createdBy: z.string().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ApiKey" });

/** The public JSON form of an API key: never its secret or hash. */
export function apiKeyJson(k: ApiKeyInfo): z.output<typeof apiKeyJsonSchema> {
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
