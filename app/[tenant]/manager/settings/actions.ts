"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { isValidTimeZone, parseDayStart } from "@/lib/core/business-day";
import { LOCALES } from "@/lib/core/locales";
import type { TenantSettings } from "@/lib/core/settings";
import { MAX_SLOTS } from "@/lib/core/schedule";
import { isCurrencyCode } from "@/lib/core/money";
import { READY_WHEN } from "@/lib/core/stations";
import { ASK_SERVICE, CHANNELS, SERVICES } from "@/lib/core/orders";
import { staffAction, type Translator } from "@/lib/edges/next/validated-action.server";

const minutesField = (t: Translator, field: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, t("managerSettings.errors.minutes", { field, min, max }))
    .transform(Number)
    .pipe(
      z.number().int().min(min, t("managerSettings.errors.minutes", { field, min, max })).max(max, t("managerSettings.errors.minutes", { field, min, max })),
    );

/**
 * The settings form: its strings become the API's partial update, checked here first so
 * that errors read in the screen's language; the core checks again and saves the change
 * with its audit entry.
 */
export const saveSettings = staffAction(
  ["MANAGER"],
  (t) =>
    z
      .object({
        name: z.string().trim().min(1, t("managerSettings.errors.name")).max(120, t("managerSettings.errors.name")),
        timezone: z
          .string()
          .trim()
          .superRefine((v, ctx) => {
            if (!isValidTimeZone(v)) ctx.addIssue({ code: "custom", message: t("managerSettings.errors.timezone", { value: v }) });
          }),
        dayStartsAt: z
          .string()
          .trim()
          .refine((v) => parseDayStart(v) !== null, t("managerSettings.errors.dayStartsAt")),
        language: z.enum(["", ...LOCALES]).transform((v) => (v === "" ? null : v)),
        // Blank: no currency (amounts without a symbol); "eur" is read as EUR.
        currency: z
          .string()
          .trim()
          .toUpperCase()
          .refine((v) => v === "" || isCurrencyCode(v), { error: (iss) => t("managerSettings.errors.currency", { value: String(iss.input) }) })
          .transform((v) => (v === "" ? null : v)),
        // A checkbox: sent as "on" when ticked, absent when not.
        kioskNumberOnly: z
          .literal("on")
          .optional()
          .transform((v) => v === "on"),
        schedule: z
          .string()
          .max(500)
          .transform((v) => v.split(/[\s,;]+/).filter(Boolean))
          .superRefine((times, ctx) => {
            const bad = times.find((s) => parseDayStart(s) === null);
            if (bad !== undefined) ctx.addIssue({ code: "custom", message: t("managerSettings.errors.schedule", { value: bad }) });
            else if (new Set(times).size !== times.length) ctx.addIssue({ code: "custom", message: t("managerSettings.errors.scheduleDuplicate") });
            else if (times.length > MAX_SLOTS) ctx.addIssue({ code: "custom", message: t("managerSettings.errors.scheduleTooMany") });
          }),
        readyClearMinutes: minutesField(t, t("managerSettings.readyClearMinutes"), 1, 240),
        ageWarnMinutes: minutesField(t, t("managerSettings.ageWarnMinutes"), 1, 240),
        ageLateMinutes: minutesField(t, t("managerSettings.ageLateMinutes"), 1, 480),
        printGiveUpMinutes: minutesField(t, t("managerSettings.printGiveUpMinutes"), 1, 120),
        readyWhen: z.enum(READY_WHEN, { error: t("managerSettings.errors.readyWhen") }),
        askService: z.enum(ASK_SERVICE, { error: t("managerSettings.errors.askService") }),
        defaultService: z.enum(SERVICES, { error: t("managerSettings.errors.defaultService") }),
        // Checkboxes: none ticked is absent, one a string, more an array.
        soldOutAcceptedFrom: z
          .union([z.string(), z.array(z.string())])
          .optional()
          .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
          .pipe(
            z.array(
              z.enum(
                CHANNELS.filter((c) => c !== "kiosk"),
                { error: t("managerSettings.errors.soldOutAcceptedFrom") },
              ),
            ),
          ),
      })
      .refine((s) => s.ageWarnMinutes < s.ageLateMinutes, { message: t("managerSettings.errors.warnBeforeLate"), path: ["ageWarnMinutes"] }),
  async (input, { app, caller }): Promise<{ settings: TenantSettings; changed: number }> => {
    const { settings, changed } = await app.settings.update(caller.tenant, input, caller.actor);
    refresh();
    return { settings, changed: changed.length };
  },
);
