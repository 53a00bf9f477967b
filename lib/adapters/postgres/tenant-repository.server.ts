/** The tenants' repository: restaurants by slug or id, and what signing in reads (lib/auth/access.server.ts). */
import type { StaffRole, Tenant } from "@/lib/core/tenants";
import type { Db } from "./prisma.server";
import { LIVE_SERIES_AND_STATIONS, toTenant } from "./rows.server";

/** Restaurants by slug or id; API keys by hash and a role's sign-in credentials. Each method is one statement. */
export class PrismaTenantRepository {
  constructor(private readonly db: Db) {}

  async findBySlug(slug: string): Promise<Tenant | null> {
    const row = await this.db.tenant.findUnique({ where: { slug }, include: LIVE_SERIES_AND_STATIONS });
    return row ? toTenant(row, row.series, row.stations) : null;
  }

  async findById(id: string): Promise<Tenant | null> {
    const row = await this.db.tenant.findUnique({ where: { id }, include: LIVE_SERIES_AND_STATIONS });
    return row ? toTenant(row, row.series, row.stations) : null;
  }

  async staffCredentials(tenantId: string, role: StaffRole) {
    return this.db.staffCredential.findMany({ where: { tenantId, role } });
  }

  async apiKeyByHash(keyHash: string) {
    return this.db.apiKey.findUnique({ where: { keyHash }, include: { tenant: true } });
  }
}
