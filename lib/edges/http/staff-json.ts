import { z } from "zod";
import { STAFF_ROLES } from "@/lib/core/tenants";
import type { StaffMemberInfo } from "@/lib/core/ports";

/** A person on the wire (the OpenAPI contract's `StaffMember`): never a PIN or its hash. */
export const staffMemberJsonSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    role: z.enum(STAFF_ROLES),
    active: z.boolean().meta({ description: "false: let go; cannot sign in, and every session of theirs has ended." }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "StaffMember" });

export function staffMemberJson(m: StaffMemberInfo): z.output<typeof staffMemberJsonSchema> {
  return { id: m.id, name: m.name, role: m.role, active: m.active, createdAt: m.createdAt.toISOString(), updatedAt: m.updatedAt.toISOString() };
}
