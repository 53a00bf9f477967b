/**
 * The demo restaurant `npm run dev` creates on a fresh machine, with fixed sign-in codes
 * printed to the console. Only ever created when DEMO_TENANT is on (by default: in
 * development without DATABASE_URL), never in production by default.
 */
import type { App } from "./app.server";
import { createTenant } from "./provisioning.server";

export const DEMO = {
  slug: "demo",
  name: "Demo Diner",
  timeZone: "Europe/Berlin",
  dayStart: "04:00",
  /** Shifts the scheduler starts by itself (decision 0010): lunch and dinner. */
  schedule: ["11:00", "17:00"],
  staff: { manager: "demo-manager", cashier: "demo-cashier", kitchen: "demo-kitchen" },
};

export async function ensureDemoTenant(app: App, port: number): Promise<void> {
  const existing = await app.tenants.find(DEMO.slug);
  let apiKeys: Record<string, string> | null = null;
  if (!existing) {
    const created = await createTenant(
      app.db,
      { slug: DEMO.slug, name: DEMO.name, timeZone: DEMO.timeZone, dayStart: DEMO.dayStart },
      { staffSecrets: DEMO.staff },
    );
    // Only on a fresh demo: a schedule the manager changed since is theirs.
    await app.db.tenant.update({ where: { id: created.tenant.id }, data: { schedule: DEMO.schedule } });
    app.tenants.forget(DEMO.slug);
    apiKeys = created.apiKeys;
  }
  const base = `http://localhost:${port}/${DEMO.slug}`;
  const lines = [
    "",
    `  Demo restaurant "${DEMO.name}" (${DEMO.timeZone}, day starts ${DEMO.dayStart}, scheduled shifts: ${(existing?.schedule ?? DEMO.schedule).join(", ") || "none"})`,
    `    kiosk    ${base}/kiosk     sign-in code: ${DEMO.staff.cashier}`,
    `    kitchen  ${base}/kitchen   sign-in code: ${DEMO.staff.kitchen}`,
    `    manager  ${base}/manager   sign-in code: ${DEMO.staff.manager}`,
    `    board    ${base}/board     (public)`,
    ...(apiKeys ? [`    API keys (shown once): ${JSON.stringify(apiKeys)}`] : []),
    "",
  ];
  process.stderr.write(lines.join("\n") + "\n");
}
