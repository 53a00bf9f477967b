/**
 * Tenant lookups by slug, cached briefly per process: every request and socket resolves
 * its tenant, and tenants almost never change. A settings change forgets the slug on
 * every node (lib/server/invalidation.server.ts); the TTL (5 s) bounds staleness should
 * an invalidation be lost.
 */
import { AppError } from "@/lib/core/errors";
import type { Tenant } from "@/lib/core/tenants";

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
    const tenant = typeof slug === "string" && slug.length <= 64 ? await this.find(slug) : null;
    if (!tenant) {
      throw new AppError("NOT_FOUND", { message: `Unknown tenant "${slug}"`, userMessage: `No restaurant called "${slug}".` });
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
