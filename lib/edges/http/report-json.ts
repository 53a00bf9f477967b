/** The JSON forms of the manager's reports (shift history, a day's figures) and their wire schemas (the OpenAPI contract). */
import { z } from "zod";
import { SERVICES } from "@/lib/core/orders";
import type { DayFigures, ShiftHistory } from "@/lib/core/reports/report-service";

const timestamp = z.iso.datetime();

const spreadSchema = z
  .object({
    samples: z.int().min(0),
    p50: z.number().nullable().meta({ description: "Seconds (to the millisecond); null without data." }),
    p90: z.number().nullable(),
  })
  .meta({ id: "Spread", description: "Nearest-rank percentiles of durations, in seconds." });

export const shiftHistorySchema = z
  .object({
    businessDay: z.iso.date(),
    shifts: z.array(
      z.object({
        shift: z.int().min(1),
        firstNumber: z.int().min(1),
        startedAt: timestamp,
        startedBy: z.string().nullable(),
        reason: z.string().nullable(),
        trigger: z.enum(["manual", "schedule", "day"]),
        orders: z.int().min(0),
        lastNumber: z.int().nullable(),
        series: z.array(z.object({ series: z.string(), prefix: z.string(), orders: z.int().min(0), first: z.string(), last: z.string() })),
      }),
    ),
  })
  .meta({ id: "ShiftHistory" });

const takingsSumSchema = z
  .object({
    orders: z.int().min(0),
    totalCents: z
      .int()
      .min(0)
      .meta({ description: "Price × quantity over the orders' lines, in the currency's smallest unit; a line without a price counts 0." }),
    unpricedOrders: z.int().min(0).meta({ description: "Of `orders`, those with a line without a price: while above 0 the total is partial." }),
  })
  .meta({ id: "TakingsSum" });

const takingsSchema = z
  .object({
    currency: z.string().nullable().meta({ description: "The restaurant's currency (ISO 4217) now; null when it set none." }),
    total: takingsSumSchema.meta({ description: "Every order of the day but the cancelled ones (cleared, uncollected orders included)." }),
    shifts: z.array(takingsSumSchema.extend({ shift: z.int().min(1) })).meta({ description: "The day's shifts in order, each as `total`." }),
    channels: z.array(takingsSumSchema.extend({ channel: z.string() })).meta({ description: "The channels that took orders." }),
    services: z
      .array(takingsSumSchema.extend({ service: z.enum(SERVICES).nullable().meta({ description: "null: not stated." }) }))
      .meta({ description: "Eat in, take away, then not stated: those with orders." }),
    cancelled: takingsSumSchema.meta({ description: "The cancelled orders and what they would have come to; in none of the sums above." }),
  })
  .meta({ id: "DayTakings", description: "What the day's orders came to, from the unit prices (options included) copied onto their lines when taken." });

export const dayFiguresSchema = z
  .object({
    businessDay: z.iso.date(),
    timeZone: z.string(),
    totalOrders: z.int().min(0),
    hours: z.array(z.object({ hour: z.string(), start: timestamp, end: timestamp, orders: z.int().min(0) })),
    shifts: z.array(z.object({ shift: z.int().min(1), orders: z.int().min(0), timeToReady: spreadSchema, timeToCollected: spreadSchema })),
    series: z.array(
      z.object({
        series: z.string(),
        default: z.boolean(),
        prefix: z.string(),
        orders: z.int().min(0),
        timeToReady: spreadSchema,
        timeToCollected: spreadSchema,
      }),
    ),
    estimates: z
      .object({
        estimated: z.int().min(0).meta({ description: "Orders of the day that were told a wait estimate when placed (replayed)." }),
        compared: z.int().min(0).meta({ description: "Of those, the ones made ready: the figures below are about these." }),
        medianErrorMinutes: z
          .number()
          .nullable()
          .meta({ description: "Median distance, in minutes, between the actual time to ready and the middle of the range told." }),
        underShare: z.number().nullable().meta({ description: "Share (0–1) made ready later than the range's high end; null when none compared." }),
        withinShare: z.number().nullable().meta({ description: "Share (0–1) made ready within the range told." }),
      })
      .meta({
        id: "EstimateAccuracy",
        description:
          "How good the customers' wait estimates were: the rule replayed for each order at the moment it was placed, against its actual time to ready.",
      }),
    stations: z
      .array(
        z
          .object({
            id: z.string(),
            name: z.string().meta({ description: "Its name now; a station removed since: its name on the day's latest order." }),
            parts: z.int().min(0).meta({ description: "Parts of the day's orders at this station, done or not (cancelled orders left out)." }),
            // From the order taken to this station's part done (done parts).
            timeToDone: spreadSchema,
            shared: z.int().min(0).meta({ description: "Orders with parts at several stations, all done, that had a part here." }),
            last: z
              .int()
              .min(0)
              .meta({ description: "Of those, the ones where this station finished last: the station that holds orders up (a tie counts for each)." }),
          })
          .meta({ id: "StationFigures" }),
      )
      .meta({ description: "Per kitchen station that had parts this day, in screen order; empty for a restaurant without stations." }),
    takings: takingsSchema,
  })
  .meta({ id: "DayFigures" });

export function shiftHistoryJson(h: ShiftHistory): z.output<typeof shiftHistorySchema> {
  return {
    businessDay: h.businessDay,
    shifts: h.shifts.map((s) => ({
      shift: s.shift,
      firstNumber: s.firstNumber,
      startedAt: s.startedAt.toISOString(),
      startedBy: s.startedBy,
      reason: s.reason,
      trigger: s.trigger,
      orders: s.orders,
      lastNumber: s.lastNumber,
      // The other number series' (decision 0027): { series, prefix, orders, first, last } with display numbers.
      series: s.series,
    })),
  };
}

export function figuresJson(f: DayFigures): z.output<typeof dayFiguresSchema> {
  return {
    businessDay: f.businessDay,
    timeZone: f.timeZone,
    totalOrders: f.totalOrders,
    hours: f.hours.map((h) => ({ hour: h.hour, start: h.start.toISOString(), end: h.end.toISOString(), orders: h.orders })),
    shifts: f.shifts,
    series: f.series,
    estimates: f.estimates,
    stations: f.stations,
    takings: f.takings,
  };
}
