"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { STATION_LIMITS } from "@/lib/core/stations";
import { staffAction, type Translator } from "@/lib/edges/next/validated-action.server";

/** What a station form reports back: the station it acted on, for its status line. */
export interface StationResult {
  id: string;
  name: string;
}

const nameField = (t: Translator) =>
  z
    .string()
    .trim()
    .min(1, t("managerStations.errors.name", { max: STATION_LIMITS.name }))
    .max(STATION_LIMITS.name, t("managerStations.errors.name", { max: STATION_LIMITS.name }));

const idField = (t: Translator) => z.string().min(1, t("managerStations.errors.badRequest")).max(64, t("managerStations.errors.badRequest"));

/** The printer select: "" is none; anything else is checked by the core against the restaurant's printers. */
const printerField = (t: Translator) =>
  z
    .string()
    .max(64, t("managerStations.errors.badRequest"))
    .transform((v) => (v === "" ? null : v));

export const createStation = staffAction(
  ["MANAGER"],
  (t) => z.object({ name: nameField(t) }),
  async ({ name }, { app, caller }): Promise<StationResult & { isDefault: boolean }> => {
    const made = await app.stations.create(caller.tenant, { name }, caller.actor);
    refresh();
    return { id: made.id, name: made.name, isDefault: made.isDefault };
  },
);

/** One form per station: rename, make default, or set its chit printer. */
export const updateStation = staffAction(
  ["MANAGER"],
  (t) =>
    z.discriminatedUnion("op", [
      z.object({ op: z.literal("rename"), id: idField(t), name: nameField(t) }),
      z.object({ op: z.literal("default"), id: idField(t) }),
      z.object({ op: z.literal("printer"), id: idField(t), printerId: printerField(t) }),
    ]),
  async (input, { app, caller }): Promise<StationResult & { op: typeof input.op }> => {
    const patch = input.op === "rename" ? { name: input.name } : input.op === "default" ? { default: true } : { printerId: input.printerId };
    const saved = await app.stations.update(caller.tenant, input.id, patch, caller.actor);
    refresh();
    return { id: saved.id, name: saved.name, op: input.op };
  },
);

/** Retires a station (the page confirmed first); its open work goes to the default station's screen. */
export const removeStation = staffAction(
  ["MANAGER"],
  (t) => z.object({ id: idField(t) }),
  async ({ id }, { app, caller }): Promise<StationResult> => {
    const gone = await app.stations.remove(caller.tenant, id, caller.actor);
    refresh();
    return { id: gone.id, name: gone.name };
  },
);
