"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { staffAction } from "@/lib/edges/next/validated-action.server";
import { formatTime } from "@/app/_lib/format";
import { managerData, type ManagerData } from "./manager-data.server";

export interface ShiftResult {
  created: boolean;
  shift: number;
  firstNumber: number;
  /** What the next order gets: firstNumber, past numbers orders still open hold. */
  nextNumber: number;
  startedAt: string;
  startedBy: string;
  reason: string | null;
  /** Open orders of earlier shifts cleared from the floor, when the manager chose so. */
  cleared: number;
}

/** The live panel again, after a reconnect or an event. */
export const readManager = staffAction(
  ["MANAGER"],
  () => z.object({}),
  (_input, { app, caller }): Promise<ManagerData> => managerData(app, caller.tenant),
);

/**
 * Starts the next shift. `ifCurrentShift` is the shift the manager was looking at: when
 * two managers press at once, only one new shift starts and the other sees who started it.
 * `openOrders` says whether orders still open stay on the board (keep) or are cleared.
 */
export const startShift = staffAction(
  ["MANAGER"],
  (t) =>
    z.object({
      reason: z.string().trim().max(200, t("manager.newShift.reasonTooLong")).optional(),
      firstNumber: z
        .string()
        .trim()
        .transform((v) => (v === "" ? 1 : Number(v)))
        .pipe(
          z
            .number({ error: t("manager.newShift.badFirstNumber") })
            .int(t("manager.newShift.badFirstNumber"))
            .min(1, t("manager.newShift.badFirstNumber"))
            .max(9999, t("manager.newShift.badFirstNumber")),
        )
        .optional(),
      // The shift on the manager's screen; anything else means "none".
      ifCurrentShift: z.coerce.number().int().min(1).optional().catch(undefined),
      openOrders: z.enum(["keep", "clear"]).catch("keep"),
    }),
  async ({ reason, firstNumber, ifCurrentShift, openOrders }, { app, caller }): Promise<ShiftResult> => {
    const { shift, created, cleared, nextNumber } = await app.shifts.start(
      caller.tenant,
      { ...(reason ? { reason } : {}), firstNumber: firstNumber ?? 1, ifCurrentShift, openOrders },
      caller.actor,
      caller.by,
    );
    refresh();
    return {
      created,
      shift: shift.shift,
      firstNumber: shift.firstNumber,
      nextNumber,
      startedAt: formatTime(shift.startedAt, caller.tenant.timeZone),
      startedBy: shift.startedBy,
      reason: shift.reason,
      cleared,
    };
  },
);
