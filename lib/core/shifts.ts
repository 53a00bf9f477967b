/** A shift as the core knows it once recorded. */
import type { BusinessDay } from "./business-day";

export interface ShiftInfo {
  businessDay: BusinessDay;
  shift: number;
  firstNumber: number;
  startedAt: Date;
  startedBy: string;
  reason: string | null;
}
