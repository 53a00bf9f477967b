/**
 * Tenant lookups by slug, cached briefly per process: every request and socket resolves
 * its tenant, and tenants almost never change.
 */
import { AppError } from "@/lib/core/errors";
import type { Tenant } from "@/lib/core/tenants";

const TTL_MS = 30_000;

export class TenantDirectory {
  private cache = new Map<string, { tenant: Tenant | null; at: number }>();

  constructor(private readonly load: (slug: string) => Promise<Tenant | null>) {}

  async find(slug: string): Promise<Tenant | null> {
    const hit = this.cache.get(slug);
    if (hit && Date.now() - hit.at < (hit.tenant ? TTL_MS : 2_000)) return hit.tenant;
    const tenant = await this.load(slug);
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
  }
}
