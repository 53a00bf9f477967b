/**
 * Tenant lookups by slug, cached briefly per process: every request and socket resolves
 * its tenant, and tenants almost never change. A settings change forgets the slug on
 * every node (lib/server/caches/invalidation.server.ts); the TTL (5 s) bounds staleness should
 * an invalidation be lost.
 */
import { AppError } from "@/lib/core/errors";
import { slugSchema, type Tenant } from "@/lib/core/tenants";
import { ReadThroughCache } from "@/lib/core/read-through-cache";

/** Checked before any lookup or cache entry: a NUL, broken UTF-8 or a 5,000-character name never reaches PostgreSQL. */
const isSlug = (slug: unknown): slug is string => slugSchema.safeParse(slug).success;

export const TENANT_CACHE_MS = 5_000;

export class TenantDirectory {
  private readonly cache: ReadThroughCache<string, Tenant | null>;

  constructor(
    load: (slug: string) => Promise<Tenant | null>,
    /** How long an entry is trusted right now (shorter while invalidations may be missed). */
    ttlMs: () => number = () => TENANT_CACHE_MS,
  ) {
    // An unknown slug is read again sooner: it may be a restaurant being created.
    this.cache = new ReadThroughCache(load, (tenant) => Math.min(ttlMs(), tenant ? TENANT_CACHE_MS : 2_000));
  }

  async find(slug: string): Promise<Tenant | null> {
    return isSlug(slug) ? this.cache.get(slug) : null;
  }

  async get(slug: string): Promise<Tenant> {
    const tenant = await this.find(slug);
    if (!tenant) {
      const named = isSlug(slug);
      throw new AppError("NOT_FOUND", {
        message: named ? `Unknown tenant "${slug}"` : "Malformed tenant slug",
        userMessage: named ? `No restaurant called "${slug}".` : "No such restaurant.",
      });
    }
    return tenant;
  }

  forget(slug: string): void {
    this.cache.forget(slug);
  }

  clear(): void {
    this.cache.clear();
  }
}
