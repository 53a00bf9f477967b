"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { STAFF_ROLES, type StaffRole } from "@/lib/core/tenants";
import { staffAction } from "@/lib/edges/next/validated-action.server";

/** A new code for a role; the answer is the only place it is ever shown. */
export const rotateCode = staffAction(
  ["MANAGER"],
  (t) => z.object({ role: z.enum(STAFF_ROLES, { error: t("managerAccess.errors.role") }) }),
  async ({ role }, { app, caller }): Promise<{ role: StaffRole; code: string }> => {
    const { code } = await app.staffCodes.rotate(caller.tenant, role, caller.actor);
    // A manager who rotated the manager code is signed out too; the next navigation asks for the new code.
    return { role, code };
  },
);

/** A new API key, shown once in the answer. */
export const createKey = staffAction(
  ["MANAGER"],
  (t) =>
    z.object({
      name: z.string().trim().min(1, t("managerAccess.errors.keyName")).max(80, t("managerAccess.errors.keyName")),
      role: z.enum(STAFF_ROLES, { error: t("managerAccess.errors.role") }),
    }),
  async (input, { app, caller }): Promise<{ name: string; role: StaffRole; prefix: string; key: string }> => {
    const made = await app.keys.create(caller.tenant, input, caller.actor);
    refresh();
    return { name: made.name, role: made.role, prefix: made.prefix, key: made.key };
  },
);

export const revokeKey = staffAction(
  ["MANAGER"],
  () => z.object({ id: z.string().max(64) }),
  async ({ id }, { app, caller }): Promise<{ name: string }> => {
    const key = await app.keys.revoke(caller.tenant, id, caller.actor);
    refresh();
    return { name: key.name };
  },
);
