import { z } from "zod";
import { lineText } from "./text";
import { isValidTimeZone, parseDayStart, type DayRule } from "./business-day";
import { LOCALES, type Locale } from "./locales";
import { isCurrencyCode } from "./money";
import type { Series } from "./series";
import { READY_WHEN, type ReadyWhen, type Station } from "./stations";
import { ASK_SERVICE, CHANNELS, SERVICES, type AskService, type Channel, type Service } from "./orders";

/** How the floor (board, kitchen, customer page) behaves for one restaurant. */
export interface FloorSettings {
  /** Language of screens when neither the device nor the URL chose one; null: the browser's. */
  language: Locale | null;
  /** A ready number leaves the board after this many minutes (and shows as "not collected" in the kitchen). */
  readyClearMinutes: number;
  /** An order waiting this long is shown as slow in the kitchen… */
  ageWarnMinutes: number;
  /** …and this long as late. */
  ageLateMinutes: number;
  /** ISO 4217 code of the menu's prices (kiosk, ticket); null: amounts without a symbol. */
  currency: string | null;
  /** The kiosk only hands out numbers (the restaurant takes orders on another till). */
  kioskNumberOnly: boolean;
  /** A ticket not printed this many minutes after its order is given up (decision 0029). */
  printGiveUpMinutes: number;
  /** With stations: an order is ready when its last part is done ("parts") or when the expo bumps it ("expo"). */
  readyWhen: ReadyWhen;
  /** Whether the kiosk asks "eat in or take away" (issue #41). */
  askService: AskService;
  /** What an order stating none is, while the restaurant asks at all. */
  defaultService: Service;
  /** Channels whose orders are taken with a sold-out dish (its line flagged) instead of refused. */
  soldOutAcceptedFrom: Channel[];
}

export const floorSettingsSchema = z.strictObject({
  language: z.enum(LOCALES).nullable(),
  readyClearMinutes: z.number().int().min(1, "At least 1 minute").max(240, "At most 240 minutes"),
  ageWarnMinutes: z.number().int().min(1).max(240),
  ageLateMinutes: z.number().int().min(1).max(480),
  currency: z.string().refine(isCurrencyCode, "Currency must be an ISO 4217 code such as EUR").nullable(),
  kioskNumberOnly: z.boolean(),
  printGiveUpMinutes: z.number().int().min(1).max(120),
  readyWhen: z.enum(READY_WHEN),
  askService: z.enum(ASK_SERVICE),
  defaultService: z.enum(SERVICES),
  soldOutAcceptedFrom: z.array(z.enum(CHANNELS)),
}) satisfies z.ZodType<FloorSettings>;

export interface Tenant extends DayRule {
  id: string;
  slug: string;
  name: string;
  floor: FloorSettings;
  /** Local times ("HH:MM", ascending) at which the scheduler starts a new shift. */
  schedule: readonly string[];
  /** When the schedule, time zone or day start last changed; slots before it never fire. */
  scheduleChangedAt?: Date | null;
  /** Its number series, the default first (decision 0027); absent: the default only. */
  series?: readonly Series[];
  /** Its kitchen stations in screen order (issue #40); absent or empty: one kitchen, no parts. */
  stations?: readonly Station[];
  /** Whether the role codes shared by a role still sign in (decision 0051); absent: they do. */
  sharedCodes?: boolean;
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
  name: lineText("Name").min(1, "Name is required").max(120),
  timeZone: z.string().refine(isValidTimeZone, {
    error: (iss) => `Unknown time zone "${String(iss.input)}" (use an IANA name such as Europe/Berlin)`,
  }),
  dayStart: z.string().refine((s) => parseDayStart(s) !== null, {
    error: (iss) => `Day start "${String(iss.input)}" must be HH:MM between 00:00 and 23:59`,
  }),
});
