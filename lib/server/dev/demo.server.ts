/**
 * The demo restaurant `npm run dev` creates on a fresh machine, with fixed sign-in codes
 * printed to the console. Only ever created when DEMO_TENANT is on (by default: in
 * development without DATABASE_URL), never in production by default.
 */
import { STAFF_ROLES } from "@/lib/core/tenants";
import { verifySecret } from "@/lib/auth/secrets.server";
import type { Db } from "@/lib/adapters/postgres/prisma.server";
import type { App } from "@/lib/server/app.server";
import { createTenant, ROLE_KEY } from "@/lib/server/ops/provisioning.server";
import { demoBanner, type DemoBannerInput } from "./demo-banner";
import { toTenant } from "@/lib/adapters/postgres/rows.server";
import type { SeedMenu } from "@/lib/core/menu";

export const DEMO = {
  slug: "demo",
  name: "Demo Diner",
  timeZone: "Europe/Berlin",
  dayStart: "04:00",
  /** Shifts the scheduler starts by itself (decision 0010): lunch and dinner. */
  schedule: ["11:00", "17:00"],
  staff: { manager: "demo-manager", cashier: "demo-cashier", kitchen: "demo-kitchen" },
};

/** Bilingual names: the demo is shown in both languages, and orders copy the name as it is. */
const DEMO_MENU: SeedMenu[] = [
  {
    name: "Noodles 面",
    optionGroups: [{ name: "Spice 辣度", required: true, options: [{ name: "Mild 微辣" }, { name: "Medium 中辣" }, { name: "Extra spicy 特辣" }] }],
    items: [
      {
        name: "Beef noodles 牛肉面",
        priceCents: 1250,
        optionGroups: [
          { name: "Size 份量", required: true, options: [{ name: "Regular 中碗" }, { name: "Large 大碗", priceCents: 200 }] },
          {
            name: "Extras 加料",
            options: [
              { name: "Egg 加蛋", priceCents: 150 },
              { name: "Extra noodles 加面", priceCents: 200 },
            ],
          },
        ],
      },
      { name: "Dan dan noodles 担担面", priceCents: 1100 },
      { name: "Wonton soup 馄饨汤", priceCents: 950 },
      { name: "Fried rice 炒饭", priceCents: 1050 },
    ],
  },
  {
    name: "Small plates 小吃",
    items: [
      { name: "Pork dumplings 猪肉饺子", priceCents: 800 },
      { name: "Spring rolls 春卷", priceCents: 600 },
      { name: "Cucumber salad 拍黄瓜", priceCents: 500 },
    ],
  },
  {
    name: "Drinks 饮料",
    items: [
      { name: "Jasmine tea 茉莉花茶", priceCents: 300 },
      { name: "Soy milk 豆浆", priceCents: 350 },
      { name: "Lemonade 柠檬水", priceCents: 400 },
    ],
  },
];

export async function ensureDemoTenant(app: App): Promise<void> {
  const existing = await app.tenants.find(DEMO.slug);
  let apiKeys: DemoBannerInput["apiKeys"] = null;
  if (!existing) {
    const created = await createTenant(
      app.db,
      { slug: DEMO.slug, name: DEMO.name, timeZone: DEMO.timeZone, dayStart: DEMO.dayStart },
      { staffSecrets: DEMO.staff },
    );
    // Only on a fresh demo: a schedule the manager changed since is theirs.
    // And the kiosk asks eat in or take away, keeping the last choice, as a noodle shop's would.
    await app.db.tenant.update({ where: { id: created.tenant.id }, data: { schedule: DEMO.schedule, askService: "remember" } });
    app.tenants.forget(DEMO.slug);
    apiKeys = created.apiKeys;
  }
  // A small menu for the kiosk's buttons, once: a menu the demo's manager changed stays as it is.
  await app.menu.seedIfEmpty(await app.tenants.get(DEMO.slug), DEMO_MENU, "demo setup");
  const stored = await storedDemo(app.db);
  if (stored) process.stderr.write(demoBanner({ ...stored, apiKeys }));
}

/**
 * The demo as stored now, for the start-up banner: its settings, and per role the demo's
 * code only while it still signs in (the stored argon2 hash verifies it); null once changed.
 */
export async function storedDemo(db: Db): Promise<Pick<DemoBannerInput, "tenant" | "codes"> | null> {
  const row = await db.tenant.findUnique({ where: { slug: DEMO.slug }, include: { staff: { select: { role: true, secretHash: true } } } });
  if (!row) return null;
  const codes: DemoBannerInput["codes"] = { manager: null, cashier: null, kitchen: null };
  for (const role of STAFF_ROLES) {
    const code = DEMO.staff[ROLE_KEY[role]];
    for (const s of row.staff) if (s.role === role && (await verifySecret(s.secretHash, code))) codes[ROLE_KEY[role]] = code;
  }
  return { tenant: toTenant(row), codes };
}
