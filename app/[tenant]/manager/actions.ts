"use server";

import { refresh } from "next/cache";
import { AppError } from "@/lib/core/errors";
import { staffAction } from "@/lib/adapters/next/staff.server";
import { formatTime } from "@/app/_lib/format";

export interface ShiftResult {
  created: boolean;
  shift: number;
  firstNumber: number;
  startedAt: string;
  startedBy: string;
  reason: string | null;
}

function badInput(userMessage: string): AppError {
  return new AppError("BAD_INPUT", { message: userMessage, userMessage });
}

/**
 * Starts the next shift. `ifCurrentShift` is the shift the manager was looking at: when
 * two managers press at once, only one new shift starts and the other sees who started it.
 */
export const startShift = staffAction<ShiftResult>(["MANAGER"], async (caller, form, app) => {
  const reason = String(form.get("reason") ?? "").trim();
  if (reason.length > 200) throw badInput("The reason is too long (200 characters at most).");
  const firstRaw = String(form.get("firstNumber") ?? "").trim();
  const firstNumber = firstRaw === "" ? 1 : Number(firstRaw);
  if (!Number.isInteger(firstNumber) || firstNumber < 1 || firstNumber > 9999) throw badInput("First number must be a whole number from 1 to 9999.");
  const seen = Number(form.get("ifCurrentShift"));
  const ifCurrentShift = Number.isInteger(seen) && seen >= 1 ? seen : undefined;

  const { shift, created } = await app.shifts.start(caller.tenant, { ...(reason ? { reason } : {}), firstNumber, ifCurrentShift }, caller.actor);
  refresh();
  return {
    created,
    shift: shift.shift,
    firstNumber: shift.firstNumber,
    startedAt: formatTime(shift.startedAt, caller.tenant.timeZone),
    startedBy: shift.startedBy,
    reason: shift.reason,
  };
});
