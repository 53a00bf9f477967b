/**
 * The manager's reports: a day's shifts, its figures, an order found by number and the
 * orders export. Reads only; every store call is scoped to one tenant.
 */
import { businessDayAt, type BusinessDay } from "../business-day";
import type { Tenant } from "../tenants";
import { dayHours, dayStartInstant, hourlyCounts } from "./day-hours";
import { orderCsvHeader, orderCsvLine } from "./orders-csv";
import { spreadSeconds, type Spread } from "./percentile";
import { parseDayQuery, parseNumberQuery, parseRangeQuery } from "./report-queries";
import { seriesFigures, type SeriesFigures } from "./series-figures";
import { stationFigures, type StationFigures } from "./station-figures";
import { dayTakings, type DayTakings } from "./takings";
import { assembleShiftHistory, type SeriesCount, type ShiftHistoryEntry } from "./shift-history";
import type { Clock, OrderWithMoves, ReportStore, WaitHistory } from "../ports";
import { addDays } from "../business-day";
import { replayAccuracy, type EstimateAccuracy } from "./estimate-accuracy";
import { displayNumber } from "../series";

export interface ShiftHistory {
  businessDay: BusinessDay;
  shifts: ShiftHistoryEntry[];
}

export interface DayFigures {
  businessDay: BusinessDay;
  timeZone: string;
  hours: { hour: string; start: Date; end: Date; orders: number }[];
  totalOrders: number;
  shifts: { shift: number; orders: number; timeToReady: Spread; timeToCollected: Spread }[];
  /** The whole day per number series that took orders (decision 0027). */
  series: SeriesFigures[];
  /** How good the customers' wait estimates were, replayed (decision 0052). */
  estimates: EstimateAccuracy;
  /** Per kitchen station that had parts this day (issue #40); empty without stations. */
  stations: StationFigures[];
  /** What the day's orders came to, per shift, channel and service (issue #41). */
  takings: DayTakings;
}

export type Query = Record<string, string | undefined>;

export interface FoundByNumber {
  businessDay: BusinessDay;
  number: number;
  /** The letters asked for; null: none, every series' orders with that number. */
  prefix: string | null;
  /** The number as asked for, as screens write it ("K12", "12"). */
  display: string;
  /** Each with its stored moves (who made each), oldest first. */
  orders: OrderWithMoves[];
}

export class ReportService {
  constructor(private readonly deps: { store: ReportStore; clock: Clock; waits: Pick<WaitHistory, "replayOrders"> }) {}

  today(tenant: Tenant): BusinessDay {
    return businessDayAt(this.deps.clock.now(), tenant);
  }

  async history(tenant: Tenant, query: Query = {}): Promise<ShiftHistory> {
    const day = parseDayQuery(query).day ?? this.today(tenant);
    return { businessDay: day, shifts: await this.shiftsOf(tenant, day) };
  }

  private async shiftsOf(tenant: Tenant, day: BusinessDay): Promise<ShiftHistoryEntry[]> {
    return (await this.shiftsAndCounts(tenant, day))[0];
  }

  /** The day's shifts, and its orders counted per shift and series (none for a day not begun). */
  private async shiftsAndCounts(tenant: Tenant, day: BusinessDay): Promise<[ShiftHistoryEntry[], SeriesCount[]]> {
    const today = this.today(tenant);
    if (day > today) return [[], []];
    const [recorded, counts] = await Promise.all([this.deps.store.recordedShifts(tenant.id, day), this.deps.store.countsByShift(tenant.id, day)]);
    return [assembleShiftHistory({ day, today, dayStart: dayStartInstant(day, tenant), recorded, counts }), counts];
  }

  async figures(tenant: Tenant, query: Query = {}): Promise<DayFigures> {
    const day = parseDayQuery(query).day ?? this.today(tenant);
    const hours = dayHours(day, tenant);
    const { store } = this.deps;
    const [[shifts, counts], perHour, durations, replayed, parts, priced] = await Promise.all([
      this.shiftsAndCounts(tenant, day),
      store.ordersPerHourIndex(tenant.id, day, hours[0]!.start),
      store.durations(tenant.id, day),
      // The day before too: the history and the orders ahead of the day's first orders.
      this.deps.waits.replayOrders(tenant.id, [addDays(day, -1), day]),
      store.stationParts(tenant.id, day),
      store.takingsOrders(tenant.id, day),
    ]);
    const hourly = hourlyCounts(hours, perHour);
    return {
      businessDay: day,
      timeZone: tenant.timeZone,
      hours: hours.map((h, i) => ({ hour: h.label, start: h.start, end: h.end, orders: hourly[i]! })),
      totalOrders: hourly.reduce((a, b) => a + b, 0),
      shifts: shifts.map((s) => {
        const mine = durations.filter((d) => d.shift === s.shift);
        return {
          shift: s.shift,
          orders: s.orders,
          timeToReady: spreadSeconds(mine.flatMap((d) => (d.toReadyMs === null ? [] : [d.toReadyMs]))),
          timeToCollected: spreadSeconds(mine.flatMap((d) => (d.toCollectedMs === null ? [] : [d.toCollectedMs]))),
        };
      }),
      series: seriesFigures(counts, durations),
      estimates: replayAccuracy(replayed, day),
      stations: stationFigures(parts, tenant.stations ?? []),
      takings: dayTakings(priced, { shifts: shifts.map((s) => s.shift), currency: tenant.floor.currency }),
    };
  }

  /**
   * Every order of the day with that number, oldest shift first: `K12` those of the series
   * lettered K; `12` (or `k12`…) without letters those of every series — 12 and K12 both,
   * each saying which by its prefix: the list is the answer to an ambiguous number.
   */
  async findByNumber(tenant: Tenant, query: Query): Promise<FoundByNumber> {
    const q = parseNumberQuery(query);
    const day = q.day ?? this.today(tenant);
    const orders = await this.deps.store.ordersByNumber(tenant.id, day, q.number, q.prefix);
    return { businessDay: day, number: q.number, prefix: q.prefix, display: displayNumber(q.prefix ?? "", q.number), orders };
  }

  /**
   * The CSV export of a date range. The range is checked before anything is streamed, so
   * a bad one is a 400; the lines are then produced a page of orders at a time.
   */
  exportCsv(tenant: Tenant, query: Query): { filename: string; lines: AsyncIterable<string, void> } {
    const { from, to } = parseRangeQuery(query);
    const store = this.deps.store;
    async function* lines() {
      yield orderCsvHeader();
      for await (const o of store.ordersInRange(tenant.id, from, to)) yield orderCsvLine(o, tenant.floor.currency);
    }
    return { filename: `${tenant.slug}-orders-${from}${to === from ? "" : `-to-${to}`}.csv`, lines: lines() };
  }
}
