/**
 * What `npm run dev` prints about the demo after a restart comes from the database: a time
 * zone changed in the console is printed as changed, and a rotated sign-in code is not
 * printed (the demo's original, which no longer signs in), while unchanged ones are.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSecret, verifySecret } from "@/lib/auth/secrets.server";
import { createPrisma, type Db } from "@/lib/adapters/postgres/prisma.server";
import { PrismaStaffCodeStore } from "@/lib/adapters/postgres/staff-code-store.server";
import { demoBanner } from "@/lib/server/dev/demo-banner";
import { DEMO, storedDemo } from "@/lib/server/dev/demo.server";
import { createTenant } from "@/lib/server/ops/provisioning.server";
import { createTestDatabase, type TestDatabase } from "../support/db";

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase("demo_start");
  db = createPrisma(database.url, { max: 2 });
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const banner = async () => {
  const stored = await storedDemo(db);
  if (!stored) throw new Error("no demo stored");
  return demoBanner({ ...stored, apiKeys: null });
};

describe("the demo as npm run dev prints it on start", () => {
  it("is nothing before the demo exists", async () => {
    expect(await storedDemo(db)).toBeNull();
  });

  it("prints the demo's settings and codes while they are unchanged", async () => {
    await createTenant(db, { slug: DEMO.slug, name: DEMO.name, timeZone: DEMO.timeZone, dayStart: DEMO.dayStart }, { staffSecrets: DEMO.staff });
    const text = await banner();
    expect(text).toContain("(Europe/Berlin, day starts 04:00,");
    for (const code of Object.values(DEMO.staff)) expect(text).toContain(`sign-in code: ${code}`);
  });

  it("after the time zone and the cashier's code were changed: prints the stored zone and only the codes that still work", async () => {
    const tenant = await db.tenant.update({ where: { slug: DEMO.slug }, data: { timeZone: "Asia/Tokyo", dayStartMinutes: 330 } });
    const newHash = await hashSecret("k7fq-2mzp-x9ra-c4tn");
    await new PrismaStaffCodeStore(db).rotate(tenant.id, "CASHIER", newHash, new Date(), {
      actor: "test",
      action: "staff.rotate",
      details: { role: "CASHIER" },
    });
    expect(await verifySecret(newHash, DEMO.staff.cashier)).toBe(false);

    const text = await banner();
    expect(text).toContain("(Asia/Tokyo, day starts 05:30,");
    expect(text).not.toContain(DEMO.timeZone);
    expect(text).not.toContain(DEMO.staff.cashier);
    expect(text).not.toContain("k7fq-2mzp-x9ra-c4tn");
    expect(text).toMatch(/kiosk .* sign-in code: changed \(the demo code no longer works\)/);
    expect(text).toContain(`sign-in code: ${DEMO.staff.kitchen}`);
    expect(text).toContain(`sign-in code: ${DEMO.staff.manager}`);
  });
});
