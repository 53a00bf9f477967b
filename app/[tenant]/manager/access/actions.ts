"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { STAFF_ROLES, type StaffRole } from "@/lib/core/tenants";
import { staffAction, type Translator } from "@/lib/edges/next/validated-action.server";
import { pinProblem } from "@/lib/core/staff/pin";

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

/** A PIN field's check, worded in the console's language (the rules are lib/core/staff/pin.ts's). */
function pinField(t: Translator) {
  const KEY = { digits: "pinDigits", short: "pinShort", long: "pinLong", easy: "pinEasy" } as const;
  return z.string().superRefine((pin, ctx) => {
    const problem = pinProblem(pin);
    if (problem) ctx.addIssue({ code: "custom", message: t(`managerAccess.errors.${KEY[problem]}`) });
  });
}

type PersonResult = { name: string; role: StaffRole; active: boolean };

/** A new person with their own PIN; the PIN is hashed by the service and never comes back. */
export const addPerson = staffAction(
  ["MANAGER"],
  (t) =>
    z.object({
      name: z.string().trim().min(1, t("managerAccess.errors.personName")).max(60, t("managerAccess.errors.personName")),
      role: z.enum(STAFF_ROLES, { error: t("managerAccess.errors.role") }),
      pin: pinField(t),
    }),
  async (input, { app, caller }): Promise<PersonResult> => {
    const made = await app.staff.create(caller.tenant, input, caller.actor);
    refresh();
    return { name: made.name, role: made.role, active: made.active };
  },
);

/** One change of a person: a new PIN, another role, let go (`active=false`) or taken back. */
export const updatePerson = staffAction(
  ["MANAGER"],
  (t) =>
    z.object({
      id: z.string().max(64),
      pin: pinField(t).optional(),
      role: z.enum(STAFF_ROLES, { error: t("managerAccess.errors.role") }).optional(),
      active: z.enum(["true", "false"]).optional(),
    }),
  async ({ id, pin, role, active }, { app, caller }): Promise<PersonResult & { change: "pin" | "role" | "active" }> => {
    const change = pin !== undefined ? "pin" : role !== undefined ? "role" : "active";
    const input = pin !== undefined ? { pin } : role !== undefined ? { role } : active !== undefined ? { active: active === "true" } : {};
    const person = await app.staff.update(caller.tenant, id, input, caller.actor);
    refresh();
    return { name: person.name, role: person.role, active: person.active, change };
  },
);

/** Whether the roles' shared codes still sign in (off: only people with their own PIN; their sessions end). */
export const setSharedCodes = staffAction(
  ["MANAGER"],
  () => z.object({ sharedCodes: z.enum(["true", "false"]) }),
  async ({ sharedCodes }, { app, caller }): Promise<{ sharedCodes: boolean }> => {
    const { settings } = await app.settings.update(caller.tenant, { sharedCodes: sharedCodes === "true" }, caller.actor);
    refresh();
    return { sharedCodes: settings.sharedCodes };
  },
);
