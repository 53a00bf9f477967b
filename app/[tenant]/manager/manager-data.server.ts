/** What the manager's live panel shows, as plain data: read by the page and, live, by `readManager`. */
import { summarizeShift, type ShiftSummary } from "@/lib/core/shift-summary";
import type { SeriesWithOpen } from "@/lib/core/series-service";
import type { SeriesOpenNumbers } from "@/lib/core/shift-skips";
import type { Tenant } from "@/lib/core/tenants";
import type { SlotStatus } from "@/lib/core/schedule";
import type { App } from "@/lib/server/app.server";

export interface ManagerData {
  businessDay: string;
  shift: number;
  summary: ShiftSummary;
  /** Orders still open today, every shift: what a new shift would keep or clear. */
  openCount: number;
  counter: "redis" | "database";
  /** The database role may not read the history a failover changes: numbers that need the database alone are refused (decision 0032). */
  failoverBlind: boolean;
  /** Each slot of today's schedule as it stands (empty: no schedule). */
  schedule: ScheduleLine[];
  /** The series 80 % or more of whose numbers are open (none: nothing to warn of). A page of an older release has none. */
  seriesNearFull?: SeriesFillLine[];
  /** Each series with the open numbers a new shift's numbering will skip. A page of an older release has none. */
  openBySeries?: SeriesOpenNumbers[];
}

/** A near-full or full series as the overview names it. */
export type SeriesFillLine = Pick<SeriesWithOpen, "name" | "isDefault" | "prefix" | "first" | "last" | "open" | "fill">;

/** A slot of today without its instant: what the overview lists. */
export interface ScheduleLine {
  slot: string;
  state: SlotStatus["state"];
  /** The shift it started (state "started"). */
  shift?: number;
  /** Why it did not start (state "skipped"): a ScheduleSkipReason. */
  reason?: string;
}

const line = (s: SlotStatus): ScheduleLine =>
  s.state === "started"
    ? { slot: s.slot, state: s.state, shift: s.shift }
    : s.state === "skipped"
      ? { slot: s.slot, state: s.state, reason: s.reason }
      : { slot: s.slot, state: s.state };

export async function managerData(app: App, tenant: Tenant): Promise<ManagerData> {
  const [{ businessDay, shift, orders }, openCount, slots, series, openBySeries] = await Promise.all([
    app.orders.currentShift(tenant),
    app.shifts.openCount(tenant),
    app.shifts.scheduleToday(tenant, app.env.SCHEDULE_GRACE_MINUTES * 60_000),
    app.series.listWithOpen(tenant),
    app.shifts.openBySeries(tenant),
  ]);
  return {
    businessDay,
    shift,
    summary: summarizeShift(orders),
    openCount,
    counter: app.counterSource(),
    failoverBlind: app.replication.blind(),
    schedule: slots.map(line),
    seriesNearFull: series
      .filter((s) => s.fill !== "ok")
      .map(({ name, isDefault, prefix, first, last, open, fill }) => ({ name, isDefault, prefix, first, last, open, fill })),
    openBySeries,
  };
}
