import { z } from "zod";
import { isValidTimeZone, parseDayStart, type DayRule } from "./business-day";

export interface Tenant extends DayRule {
  id: string;
  slug: string;
  name: string;
}

export const STAFF_ROLES = ["MANAGER", "CASHIER", "KITCHEN"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const slugSchema = z
  .string()
  .min(2, "Slug must be at least 2 characters")
  .max(40, "Slug must be at most 40 characters")
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, "Slug may contain lower-case letters, digits and inner dashes only");

export const newTenantSchema = z.strictObject({
  slug: slugSchema,
  name: z.string().trim().min(1, "Name is required").max(120),
  timeZone: z.string().refine(isValidTimeZone, {
    error: (iss) => `Unknown time zone "${String(iss.input)}" (use an IANA name such as Europe/Berlin)`,
  }),
  dayStart: z
    .string()
    .refine((s) => parseDayStart(s) !== null, {
      error: (iss) => `Day start "${String(iss.input)}" must be HH:MM between 00:00 and 23:59`,
    }),
});
