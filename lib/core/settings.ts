/**
 * A restaurant's settings as the console and the REST API see them: the rules of a
 * partial update (every field optional, unknown fields refused, bad fields named) and the
 * use cases of reading and changing them. A change and its audit entry are written
 * together; then every node forgets its cached copy of the restaurant.
 */
import { z } from "zod";
import { lineText } from "./text";
import { AppError } from "./errors";
import { businessDayAt, formatDayStart, isValidTimeZone, parseDayStart, type BusinessDay, type DayRule } from "./business-day";
import { LOCALES, type Locale } from "./locales";
import type { Tenant } from "./tenants";
import { scheduleSchema } from "./schedule";
import { isCurrencyCode } from "./money";
import { READY_WHEN, type ReadyWhen } from "./stations";
import { ASK_SERVICE, CHANNELS, SERVICES, type AskService, type Channel, type Service } from "./orders";

/** The settings, with the API's field names. */
export interface TenantSettings {
  name: string;
  timezone: string;
  /** "HH:MM": when the business day (and numbering from 1) starts. */
  dayStartsAt: string;
  /** The screens' language unless a device chose one; null: each browser's own. */
  language: Locale | null;
  /** Local times ("HH:MM", ascending, unique) at which a new shift starts by itself. */
  schedule: string[];
  readyClearMinutes: number;
  ageWarnMinutes: number;
  ageLateMinutes: number;
  /** ISO 4217 code ("EUR", "CNY", "USD") the kiosk and ticket show prices in; null: no symbol. */
  currency: string | null;
  /** The kiosk shows only a big "Next number" button (orders are taken on another till). */
  kioskNumberOnly: boolean;
  /** Minutes after which a ticket that could not be printed is given up (a late ticket is useless). */
  printGiveUpMinutes: number;
  /** The role codes shared by everyone of a role still sign in; false: only people with their own PIN (decision 0051). */
  sharedCodes: boolean;
  /** With stations: "parts" (an order is ready when its last part is done) or "expo" (when the expo screen bumps it). */
  readyWhen: ReadyWhen;
  /** Whether the kiosk asks "eat in or take away": "off", "ask" (every order) or "remember" (the last choice stays). */
  askService: AskService;
  /** What an order that states no service is, while the restaurant asks at all. */
  defaultService: Service;
  /** Channels whose orders are taken with a sold-out dish (the line flagged) instead of refused; never the kiosk. */
  soldOutAcceptedFrom: Channel[];
}

export const SETTINGS_FIELDS = [
  "name",
  "timezone",
  "dayStartsAt",
  "language",
  "schedule",
  "readyClearMinutes",
  "ageWarnMinutes",
  "ageLateMinutes",
  "currency",
  "kioskNumberOnly",
  "printGiveUpMinutes",
  "sharedCodes",
  "readyWhen",
  "askService",
  "defaultService",
  "soldOutAcceptedFrom",
] as const;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];

const hhmm = (what: string) =>
  z.string({ error: `${what} must be a time "HH:MM"` }).refine((s) => parseDayStart(s) !== null, {
    error: (iss) => `${what} "${String(iss.input)}" must be HH:MM between 00:00 and 23:59`,
  });

const minutes = (min: number, max: number) =>
  z
    .number({ error: "Must be a whole number of minutes" })
    .int("Must be a whole number of minutes")
    .min(min, `At least ${min} minute${min === 1 ? "" : "s"}`)
    .max(max, `At most ${max} minutes`);

/** A partial update: only the fields sent change. */
export const settingsUpdateSchema = z.strictObject({
  name: lineText("Name").min(1, "Name is required").max(120, "Name is too long (120 characters at most)").optional(),
  timezone: z
    .string({ error: "Time zone must be an IANA name such as Europe/Berlin" })
    .refine(isValidTimeZone, { error: (iss) => `Unknown time zone "${String(iss.input)}" (use an IANA name such as Europe/Berlin)` })
    .optional(),
  dayStartsAt: hhmm("Day start").optional(),
  language: z
    .enum(LOCALES, { error: `Language must be one of ${LOCALES.join(", ")}, or null for each browser's own` })
    .nullable()
    .optional(),
  schedule: scheduleSchema.optional(),
  readyClearMinutes: minutes(1, 240).optional(),
  ageWarnMinutes: minutes(1, 240).optional(),
  ageLateMinutes: minutes(1, 480).optional(),
  currency: z
    .string({ error: "Currency must be an ISO 4217 code such as EUR, or null for none" })
    .refine(isCurrencyCode, { error: (iss) => `Unknown currency "${String(iss.input)}" (use an ISO 4217 code in capitals such as EUR, CNY, USD)` })
    .nullable()
    .optional(),
  kioskNumberOnly: z.boolean({ error: "kioskNumberOnly must be true or false" }).optional(),
  printGiveUpMinutes: minutes(1, 120).optional(),
  sharedCodes: z.boolean({ error: "sharedCodes must be true or false" }).optional(),
  readyWhen: z.enum(READY_WHEN, { error: `readyWhen must be one of ${READY_WHEN.join(", ")}` }).optional(),
  askService: z.enum(ASK_SERVICE, { error: `askService must be one of ${ASK_SERVICE.join(", ")}` }).optional(),
  defaultService: z.enum(SERVICES, { error: `defaultService must be one of ${SERVICES.join(", ")}` }).optional(),
  soldOutAcceptedFrom: z
    .array(
      z
        .enum(CHANNELS, { error: `A channel must be one of ${CHANNELS.join(", ")}` })
        .refine((c) => c !== "kiosk", "The kiosk always refuses a sold-out dish: its cashier can tell the customer"),
    )
    .transform((list) => CHANNELS.filter((c) => (list as readonly string[]).includes(c)))
    .optional(),
});
export type SettingsUpdate = z.output<typeof settingsUpdateSchema>;

export function settingsOf(t: Tenant): TenantSettings {
  return {
    name: t.name,
    timezone: t.timeZone,
    dayStartsAt: formatDayStart(t.dayStartMinutes),
    language: t.floor.language,
    schedule: [...t.schedule],
    readyClearMinutes: t.floor.readyClearMinutes,
    ageWarnMinutes: t.floor.ageWarnMinutes,
    ageLateMinutes: t.floor.ageLateMinutes,
    currency: t.floor.currency,
    kioskNumberOnly: t.floor.kioskNumberOnly,
    printGiveUpMinutes: t.floor.printGiveUpMinutes,
    sharedCodes: t.sharedCodes !== false,
    readyWhen: t.floor.readyWhen,
    askService: t.floor.askService,
    defaultService: t.floor.defaultService,
    soldOutAcceptedFrom: [...t.floor.soldOutAcceptedFrom],
  };
}

export type SettingsChanges = Partial<Record<SettingsField, { from: unknown; to: unknown }>>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The settings after `update`, and what changed (old → new). The rules that span fields
 * are checked on the result: an order is slow before it is late.
 */
export function applySettingsUpdate(current: TenantSettings, update: SettingsUpdate): { next: TenantSettings; changes: SettingsChanges } {
  const next: TenantSettings = { ...current };
  const changes: SettingsChanges = {};
  for (const field of SETTINGS_FIELDS) {
    const value = update[field];
    if (value === undefined) continue;
    (next as unknown as Record<string, unknown>)[field] = value;
    if (!same(current[field], value)) changes[field] = { from: current[field], to: value };
  }
  if (next.ageWarnMinutes >= next.ageLateMinutes) {
    // Name the field the caller sent (both when both or neither were sent).
    const sent = (["ageWarnMinutes", "ageLateMinutes"] as const).filter((f) => update[f] !== undefined);
    const named = sent.length === 1 ? sent : (["ageWarnMinutes", "ageLateMinutes"] as const);
    const message = `must be less than ageLateMinutes (${next.ageWarnMinutes} ≥ ${next.ageLateMinutes})`;
    const fields = named.map((path) => ({
      path,
      message: path === "ageWarnMinutes" ? message : `must be more than ageWarnMinutes (${next.ageLateMinutes} ≤ ${next.ageWarnMinutes})`,
    }));
    throw new AppError("BAD_INPUT", {
      message: `Invalid settings: ${fields.map((f) => `${f.path}: ${f.message}`).join("; ")}`,
      userMessage: `${fields[0]!.path}: ${fields[0]!.message}`,
      reason: "warnBeforeLate",
      details: { fields },
    });
  }
  return { next, changes };
}

/** What a change of time zone or day start does to the business day, said before saving. */
export interface DayRuleChange {
  /** Today's business day under the saved rule… */
  from: BusinessDay;
  /** …and under the new one. */
  to: BusinessDay;
  /**
   * later: a new business day begins now and numbering starts again; earlier: the day goes
   * back, and numbering carries on with the later day's numbers (the counter never goes
   * back) until a day after it begins; same: nothing moves.
   */
  effect: "later" | "earlier" | "same";
}

/** Null when the new rule is not valid (the form says why) or equals the saved one. */
export function dayRuleChange(now: Date, saved: DayRule, next: { timeZone: string; dayStart: string }): DayRuleChange | null {
  const minutes = parseDayStart(next.dayStart);
  if (minutes === null || !isValidTimeZone(next.timeZone)) return null;
  if (next.timeZone === saved.timeZone && minutes === saved.dayStartMinutes) return null;
  const from = businessDayAt(now, saved);
  const to = businessDayAt(now, { timeZone: next.timeZone, dayStartMinutes: minutes });
  return { from, to, effect: to > from ? "later" : to < from ? "earlier" : "same" };
}
