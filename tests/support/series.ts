import pg from "pg";

/**
 * Adds a number series to a restaurant straight in PostgreSQL (decision 0027), as the
 * console will. A node reads a restaurant's series with the restaurant: add them before
 * any server has read it (a fresh tenant), or the node keeps the series it cached.
 */
export async function addSeries(
  databaseUrl: string,
  tenantId: string,
  s: { name: string; prefix: string; first?: number; last?: number | null; channels?: string[] },
): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO "NumberSeries" (id, "tenantId", name, prefix, first, last, channels) VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6) RETURNING id`,
      [tenantId, s.name, s.prefix, s.first ?? 1, s.last ?? null, s.channels ?? []],
    );
    return rows[0]!.id;
  } finally {
    await client.end();
  }
}
