import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { createTenant, type ProvisionedTenant } from "@/lib/server/ops/provisioning.server";
import type { FloorSettings } from "@/lib/core/tenants";

export interface TestTenant {
  id: string;
  slug: string;
  name: string;
  apiKeys: ProvisionedTenant["apiKeys"];
  staff: ProvisionedTenant["staff"];
}

/** Provisions tenants through the same code as `npm run org -- create`. */
export async function provisionTenants(
  databaseUrl: string,
  specs: { slug: string; name: string; timeZone?: string; dayStart?: string; floor?: Partial<FloorSettings> }[],
): Promise<Record<string, TestTenant>> {
  const db = createPrisma(databaseUrl, { max: 2 });
  try {
    const out: Record<string, TestTenant> = {};
    for (const s of specs) {
      const p = await createTenant(db, {
        slug: s.slug,
        name: s.name,
        timeZone: s.timeZone ?? "Europe/Berlin",
        dayStart: s.dayStart ?? "04:00",
        floor: s.floor,
      });
      out[s.slug] = { id: p.tenant.id, slug: p.tenant.slug, name: p.tenant.name, apiKeys: p.apiKeys, staff: p.staff };
    }
    return out;
  } finally {
    await db.$disconnect();
  }
}
