/**
 * A change to a series that changes nothing (issue #36): `{}` is a 400 as a printer's is,
 * and fields sent as they already are write no audit entry and tell no screen — on real
 * PostgreSQL, through the series service.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createCoreHarness } from "../support/core-harness";
import { testKeyPrefix } from "../support/app-server";
import { provisionTenants } from "../support/tenants";
import { AppError } from "@/lib/core/errors";
import type { Tenant } from "@/lib/core/tenants";

const databaseUrl = inject("databaseUrl");
const redisUrl = inject("redisUrl");

describe("a series change that changes nothing", () => {
  const h = createCoreHarness({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix("series-changes") });
  const slug = "series-unchanged";
  let tenantId = "";
  beforeAll(async () => {
    tenantId = (await provisionTenants(databaseUrl, [{ slug, name: slug, timeZone: "UTC", dayStart: "00:00" }]))[slug]!.id;
  });
  afterAll(() => h.close());

  const tenant = async (): Promise<Tenant> => (await h.tenants.findById(tenantId))!;
  const audited = () => h.db.auditEntry.count({ where: { tenantId, action: "series.update" } });
  const announced = () => h.events.events.filter((e) => e.type === "settings:changed" && e.tenant === slug).length;

  it("{} is a 400; the same values are a 200 with no audit entry and no settings:changed; a real change has both", async () => {
    const made = await h.series.create(await tenant(), { name: "Kiosk", prefix: "K", first: 1, last: 99, channels: ["kiosk"] }, "Manager (test)");
    const [audits, events] = [await audited(), announced()];

    const empty = await h.series.update(await tenant(), made.id, {}, "Manager (test)").catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(AppError);
    expect((empty as AppError).code).toBe("BAD_INPUT");

    const same = await h.series.update(await tenant(), made.id, { name: "Kiosk", prefix: "k", last: 99, channels: ["kiosk"] }, "Manager (test)");
    expect(same).toEqual(made);
    expect([await audited(), announced()]).toEqual([audits, events]);

    const changed = await h.series.update(await tenant(), made.id, { last: 50 }, "Manager (test)");
    expect(changed).toEqual({ ...made, last: 50 });
    expect([await audited(), announced()]).toEqual([audits + 1, events + 1]);
  });
});
