import pg from "pg";
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

/**
 * A number series as a row of "NumberSeries" (decision 0027), written straight to the
 * database: call it before anything reads the tenant (a fresh tenant), as the app caches
 * tenants with their series. Returns the series' id.
 */
export async function insertSeries(
  databaseUrl: string,
  tenantId: string,
  s: { name: string; prefix: string; first?: number; last?: number | null; channels?: string[] },
): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO "NumberSeries" ("id", "tenantId", "name", "prefix", "first", "last", "channels")
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6) RETURNING "id"`,
      [tenantId, s.name, s.prefix, s.first ?? 1, s.last ?? null, s.channels ?? []],
    );
    return rows[0]!.id;
  } finally {
    await client.end();
  }
}
