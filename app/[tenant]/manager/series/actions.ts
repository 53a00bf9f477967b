"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { CHANNELS } from "@/lib/core/orders";
import { MAX_SERIES_NUMBER } from "@/lib/core/series";
import { formList, staffAction, type Translator } from "@/lib/edges/next/validated-action.server";

/** What a series form reports back: the name it acted on, for its status line. */
export interface SeriesResult {
  name: string;
}

/** A typed whole number 1…MAX_SERIES_NUMBER, else the field's message. */
const wholeNumber = (v: string, ctx: z.RefinementCtx, message: string): number => {
  const n = /^\d{1,8}$/.test(v) ? Number(v) : NaN;
  if (n >= 1 && n <= MAX_SERIES_NUMBER) return n;
  ctx.addIssue({ code: "custom", message });
  return z.NEVER;
};

/**
 * The series form's fields, checked here first so that errors read in the screen's
 * language; the core checks again (with the restaurant's other series, under a lock).
 */
const seriesFields = (t: Translator) =>
  z
    .object({
      name: z.string().trim().min(1, t("managerSeries.errors.name")).max(40, t("managerSeries.errors.name")),
      prefix: z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{0,3}$/, t("managerSeries.errors.prefix")),
      first: z
        .string()
        .trim()
        .transform((v, ctx) => wholeNumber(v, ctx, t("managerSeries.errors.first", { max: MAX_SERIES_NUMBER }))),
      // Empty: no end.
      last: z
        .string()
        .trim()
        .transform((v, ctx) => (v === "" ? null : wholeNumber(v, ctx, t("managerSeries.errors.last", { max: MAX_SERIES_NUMBER })))),
      channels: formList(z.enum(CHANNELS, { error: t("managerSeries.errors.channels") })),
    })
    .refine((s) => s.last === null || s.last >= s.first, { message: t("managerSeries.errors.lastBeforeFirst"), path: ["last"] });

const idField = (t: Translator) => z.string().min(1, t("managerSeries.errors.badRequest")).max(64, t("managerSeries.errors.badRequest"));

export const createSeries = staffAction(["MANAGER"], seriesFields, async (input, { app, caller }): Promise<SeriesResult> => {
  const made = await app.series.create(caller.tenant, input, caller.actor);
  refresh();
  return { name: made.name };
});

/** Saves every field of the form: the core records only what changed. */
export const updateSeries = staffAction(
  ["MANAGER"],
  (t) => seriesFields(t).and(z.object({ id: idField(t) })),
  async ({ id, ...fields }, { app, caller }): Promise<SeriesResult> => {
    const saved = await app.series.update(caller.tenant, id, fields, caller.actor);
    refresh();
    return { name: saved.name };
  },
);

export const deleteSeries = staffAction(
  ["MANAGER"],
  (t) => z.object({ id: idField(t) }),
  async ({ id }, { app, caller }): Promise<SeriesResult> => {
    const gone = await app.series.remove(caller.tenant, id, caller.actor);
    refresh();
    return { name: gone.name };
  },
);
