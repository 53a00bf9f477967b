/**
 * Creating a tenant with its staff sign-ins and API keys, one per role. Secrets are
 * returned once, to be shown once; only their hashes are stored.
 */
import { AppError } from "@/lib/core/errors";
import { parseDayStart } from "@/lib/core/business-day";
import { parseOrThrow } from "@/lib/core/orders";
import { floorSettingsSchema, newTenantSchema, STAFF_ROLES, type FloorSettings, type StaffRole, type Tenant } from "@/lib/core/tenants";
import { generateApiKey, generateStaffSecret, hashSecret } from "@/lib/auth/secrets.server";
import { ROLE_LABEL } from "@/lib/auth/roles";
import type { Db } from "@/lib/adapters/postgres/prisma.server";
import { toTenant, uniqueViolationOn } from "@/lib/adapters/postgres/rows.server";

type PerRole = { manager: string; cashier: string; kitchen: string };
export const ROLE_KEY: Record<StaffRole, keyof PerRole> = { MANAGER: "manager", CASHIER: "cashier", KITCHEN: "kitchen" };

export interface ProvisionedTenant {
  tenant: Tenant;
  /** Staff sign-in codes, by role. */
  staff: PerRole;
  /** API keys, by role. */
  apiKeys: PerRole;
}

export async function createTenant(
  db: Db,
  input: { slug: string; name: string; timeZone: string; dayStart: string; floor?: Partial<FloorSettings> },
  opts: { staffSecrets?: Partial<PerRole> } = {},
): Promise<ProvisionedTenant> {
  const { floor, ...rest } = input;
  const data = parseOrThrow(newTenantSchema, rest, "restaurant");
  const settings = parseOrThrow(floorSettingsSchema.partial(), floor ?? {}, "restaurant settings");
  const staff = {} as PerRole;
  const apiKeys = {} as PerRole;
  const credentials: { role: StaffRole; name: string; secretHash: string }[] = [];
  const keys: { role: StaffRole; prefix: string; keyHash: string }[] = [];
  for (const role of STAFF_ROLES) {
    const k = ROLE_KEY[role];
    staff[k] = opts.staffSecrets?.[k] ?? generateStaffSecret();
    credentials.push({ role, name: ROLE_LABEL[role], secretHash: await hashSecret(staff[k]) });
    const key = generateApiKey(role);
    apiKeys[k] = key.key;
    keys.push({ role, prefix: key.prefix, keyHash: key.hash });
  }
  try {
    const row = await db.tenant.create({
      data: {
        slug: data.slug,
        name: data.name,
        timeZone: data.timeZone,
        dayStartMinutes: parseDayStart(data.dayStart) ?? 240,
        ...settings,
        staff: { create: credentials },
        apiKeys: { create: keys },
      },
    });
    return { tenant: toTenant(row), staff, apiKeys };
  } catch (e) {
    if (uniqueViolationOn(e)?.includes("slug")) {
      throw new AppError("CONFLICT", { message: `Slug "${data.slug}" is taken`, userMessage: `The slug "${data.slug}" is already taken.` });
    }
    throw e;
  }
}
