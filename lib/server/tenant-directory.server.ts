/**
 * Tenant lookups by slug, cached briefly per process: every request and socket resolves
 * its tenant, and tenants almost never change. A settings change forgets the slug on
 * every node (lib/server/invalidation.server.ts); the TTL (5 s) bounds staleness should
 * an invalidation be lost.
 */
import { AppError } from "@/lib/core/errors";
import { slugSchema, type Tenant } from "@/lib/core/tenants";

/** Checked before any lookup or cache entry: a NUL, broken UTF-8 or a 5,000-character name never reaches PostgreSQL. */
const isSlug = (slug: unknown): slug is string => slugSchema.safeParse(slug).success;

export const TENANT_CACHE_MS = 5_000;

export class TenantDirectory {
  private cache = new Map<string, { tenant: Tenant | null; at: number }>();
  private epoch = 0;

  constructor(
    private readonly load: (slug: string) => Promise<Tenant | null>,
    /** How long an entry is trusted right now (shorter while invalidations may be missed). */
    private readonly ttlMs: () => number = () => TENANT_CACHE_MS,
  ) {}

  async find(slug: string): Promise<Tenant | null> {
    if (!isSlug(slug)) return null;
    const hit = this.cache.get(slug);
    if (hit && Date.now() - hit.at < Math.min(this.ttlMs(), hit.tenant ? TENANT_CACHE_MS : 2_000)) return hit.tenant;
    const epoch = this.epoch;
    const tenant = await this.load(slug);
    // Forgotten while loading: what was read may predate the change, so don't keep it.
    if (epoch !== this.epoch) return tenant;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(slug, { tenant, at: Date.now() });
    return tenant;
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
    this.cache.delete(slug);
    this.epoch++;
  }

  clear(): void {
    this.cache.clear();
    this.epoch++;
  }
}
