/**
 * The console's API keys: list (never a secret), create (the key is shown once), revoke.
 * Each change writes its audit entry in the same transaction.
 */
import { isUuid } from "./ids";
import { z } from "zod";
import { lineText } from "./text";
import { AppError } from "./errors";
import { parseOrThrow } from "./orders";
import { STAFF_ROLES, type Tenant } from "./tenants";
import type { ApiKeyGenerator, ApiKeyInfo, ApiKeyStore, CacheInvalidator } from "./ports";

/** A role as typed by people and integrations: any case. */
export const roleSchema = z
  .string({ error: `Role must be one of ${STAFF_ROLES.map((r) => r.toLowerCase()).join(", ")}` })
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.enum(STAFF_ROLES, { error: `Role must be one of ${STAFF_ROLES.map((r) => r.toLowerCase()).join(", ")}` }));

export const newApiKeySchema = z.strictObject({
  role: roleSchema,
  name: lineText("Name").min(1, "Name is required (what the key is for)").max(80, "Name is too long (80 characters at most)"),
});

const keyDetails = (k: ApiKeyInfo) => ({ id: k.id, name: k.name, role: k.role, prefix: k.prefix });

export class ApiKeyService {
  constructor(private readonly deps: { store: ApiKeyStore; generate: ApiKeyGenerator; invalidate: CacheInvalidator; now?: () => Date }) {}

  list(tenant: Tenant): Promise<ApiKeyInfo[]> {
    return this.deps.store.list(tenant.id);
  }

  /** A new key; `key` is the only time the secret exists outside its hash. */
  async create(tenant: Tenant, input: unknown, actor: string): Promise<ApiKeyInfo & { key: string }> {
    const data = parseOrThrow(newApiKeySchema, input ?? {}, "API key");
    const made = this.deps.generate(data.role);
    const info = await this.deps.store.create(
      tenant.id,
      { role: data.role, name: data.name, prefix: made.prefix, keyHash: made.hash, createdBy: actor },
      (k) => ({ actor, action: "key.create", details: keyDetails(k) }),
    );
    return { ...info, key: made.key };
  }

  /** Revokes a key of this restaurant; revoking twice is fine; unknown (or another's) is NOT_FOUND. */
  async revoke(tenant: Tenant, id: string, actor: string): Promise<ApiKeyInfo> {
    const found = isUuid(id)
      ? await this.deps.store.revoke(tenant.id, id.toLowerCase(), this.deps.now?.() ?? new Date(), (k) => ({
          actor,
          action: "key.revoke",
          details: keyDetails(k),
        }))
      : null;
    if (!found)
      throw new AppError("NOT_FOUND", {
        message: `No API key ${id} in ${tenant.slug}`,
        userMessage: "No such API key in this restaurant.",
        reason: "keyNotFound",
      });
    // Forget cached lookups even when already revoked: a node may still trust it.
    await this.deps.invalidate.keysChanged();
    return found.key;
  }
}
