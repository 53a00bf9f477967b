/**
 * Number series (issue #21, decision 0027): a restaurant's default series (1, 2, 3… with no
 * prefix and no end) and the ones a manager adds — a name, a prefix of 1–3 letters, a
 * range that may wrap, and the channels it serves. Pure rules: which series an order takes,
 * which number a ticket of a shift shows, what a screen displays and what a cook types.
 */
import { z } from "zod";
import { AppError } from "./errors";
import { CHANNELS, type Channel } from "./orders";
import { lineText } from "./text";
import { displayNumber } from "./display-number";

export type { Channel };

/** The highest number any series may reach (the kitchen's typed-number limit). */
export const MAX_SERIES_NUMBER = 99_999_999;

export interface Series {
  id: string;
  name: string;
  /** "" for none; else 1–3 letters A–Z. */
  prefix: string;
  first: number;
  /** null: no end (the numbers never come round). */
  last: number | null;
  channels: Channel[];
  /** The series of every channel no other series claims. */
  isDefault: boolean;
}

/** The series every restaurant starts with: today's numbering. It has no row; its id is this. */
export const DEFAULT_SERIES_ID = "default";
export const DEFAULT_SERIES: Series = { id: DEFAULT_SERIES_ID, name: "Default", prefix: "", first: 1, last: null, channels: [], isDefault: true };

/** A restaurant's series, the default first (a tenant read without them has only the default). */
export const seriesOf = (tenant: { series?: readonly Series[] }): readonly Series[] => tenant.series ?? [DEFAULT_SERIES];

/** The name of the series an order was numbered in. */
export const seriesNameOf = (o: { seriesName: string | null }): string => o.seriesName ?? DEFAULT_SERIES.name;

// Checked as typed, then upper-cased: upper-casing first would turn ß into SS, ﬃ into FFI and ı into I and accept them.
const prefixSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{0,3}$/, "Prefix must be 1 to 3 letters A–Z, or empty")
  .transform((p) => p.toUpperCase());

const boundSchema = (what: string) =>
  z
    .number({ error: `${what} must be a whole number` })
    .int(`${what} must be a whole number`)
    .min(1, `${what} must be at least 1`)
    .max(MAX_SERIES_NUMBER, `${what} must be at most ${MAX_SERIES_NUMBER}`);

const fields = {
  name: lineText("Name").pipe(z.string().min(1, "Name is required").max(40, "Name must be at most 40 characters")),
  prefix: prefixSchema,
  first: boundSchema("First"),
  last: boundSchema("Last").nullable(),
  channels: z
    .array(z.enum(CHANNELS, { error: `Channels must be among ${CHANNELS.join(", ")}` }), { error: "channels must be a list of channels" })
    .refine((cs) => new Set(cs).size === cs.length, "A channel is listed twice"),
};

const rangeRule = (s: { first?: number; last?: number | null }) => s.last == null || s.first === undefined || s.last >= s.first;
const rangeMessage = { message: "Last must be at least First", path: ["last"] };

/** A new series (REST and console): unknown fields refused, as everywhere. */
export const newSeriesSchema = z
  .strictObject({
    ...fields,
    prefix: fields.prefix.default(""),
    first: fields.first.default(1),
    last: fields.last.default(null),
    channels: fields.channels.default([]),
  })
  .refine(rangeRule, rangeMessage);

/** A change to a series: any of its fields, at least one (as a printer's). */
export const seriesPatchSchema = z
  .strictObject(fields)
  .partial()
  .refine((p) => Object.values(p).some((v) => v !== undefined), "Change at least one field")
  .refine(rangeRule, rangeMessage);

export type NewSeries = z.output<typeof newSeriesSchema>;
export type SeriesPatch = z.output<typeof seriesPatchSchema>;

/**
 * Whether a restaurant's series agree: one default, names unique (case aside), each channel
 * in at most one series. Overlapping ranges are allowed — the open-number rule skips what
 * another series holds — and reported so the console can say so.
 */
export function checkSeriesSet(all: readonly Series[]): { overlaps: [string, string][] } {
  const defaults = all.filter((s) => s.isDefault);
  if (defaults.length !== 1) throw new AppError("INTERNAL", { message: `A restaurant has ${defaults.length} default series` });
  const names = new Map<string, string>();
  const owners = new Map<Channel, string>();
  for (const s of all) {
    const key = s.name.toLocaleLowerCase("en");
    if (names.has(key)) throw conflict(`A series named "${s.name}" already exists`, "name", "duplicateSeries", { name: s.name });
    names.set(key, s.name);
    for (const c of s.channels) {
      const owner = owners.get(c);
      if (owner) throw conflict(`Channel ${c} already belongs to series "${owner}"`, "channels", "seriesChannelTaken", { channel: c, series: owner });
      owners.set(c, s.name);
    }
  }
  const overlaps: [string, string][] = [];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) if (sharesNumbers(all[i]!, all[j]!)) overlaps.push([all[i]!.name, all[j]!.name]);
  }
  return { overlaps };
}

/** A 400 naming the field; `reason` and `values` let a screen say it in its own language. */
const conflict = (message: string, field: string, reason: string, values: Record<string, string>) =>
  new AppError("BAD_INPUT", { message, details: { fields: [{ path: field, message }], ...values }, reason });

/** True when two series can show the same displayed number (same prefix, ranges that meet). */
export function sharesNumbers(a: Pick<Series, "prefix" | "first" | "last">, b: Pick<Series, "prefix" | "first" | "last">): boolean {
  if (a.prefix !== b.prefix) return false;
  const aLast = a.last ?? Infinity;
  const bLast = b.last ?? Infinity;
  return a.first <= bLast && b.first <= aLast;
}

/**
 * Whether an order of `channel` may name `s` (decision 0041): a series listing channels
 * serves those only, so another channel's key cannot fill it; one listing none is for a
 * device to choose, and the default (no end) can never be filled.
 */
export const servesChannel = (s: Pick<Series, "channels" | "isDefault">, channel: Channel): boolean =>
  s.isDefault || s.channels.length === 0 || s.channels.includes(channel);

/** The series an order takes: the one it names (if it serves the order's channel), else the one serving its channel, else the default. */
export function seriesFor(all: readonly Series[], order: { series?: string | null; channel: Channel }): Series {
  if (order.series != null) {
    const named = all.find((s) => s.name.toLocaleLowerCase("en") === order.series!.toLocaleLowerCase("en"));
    if (!named) {
      throw new AppError("BAD_INPUT", {
        message: `No series named "${order.series}": use one of ${all.map((s) => s.name).join(", ")}`,
        details: { fields: [{ path: "series", message: "unknown series" }] },
      });
    }
    if (!servesChannel(named, order.channel)) {
      const message = `Series "${named.name}" serves ${named.channels.join(", ")}, not ${order.channel}`;
      throw new AppError("BAD_INPUT", {
        message,
        details: { fields: [{ path: "series", message }], series: named.name, channel: order.channel },
        reason: "seriesNotForChannel",
      });
    }
    return named;
  }
  return all.find((s) => s.channels.includes(order.channel)) ?? all.find((s) => s.isDefault)!;
}

/** How many numbers a series holds (Infinity without an end). */
export const seriesSize = (s: Pick<Series, "first" | "last">): number => (s.last === null ? Infinity : s.last - s.first + 1);

/** The share of a series' numbers open at which the manager is warned, before orders are refused at all of them. */
export const NEAR_FULL_SHARE = { numerator: 4, denominator: 5 };

/**
 * How full a series is, given how many of its numbers open orders hold: `full` refuses
 * orders (SERIES_FULL), `nearFull` (80 % or more) is shown to the manager first. A series
 * without an end never fills.
 */
export function seriesFill(s: Pick<Series, "first" | "last">, open: number): "ok" | "nearFull" | "full" {
  const size = seriesSize(s);
  if (!Number.isFinite(size)) return "ok";
  if (open >= size) return "full";
  // Whole numbers only: 8 of 10 is near full, not lost to 0.8 × 10 in floating point.
  return open * NEAR_FULL_SHARE.denominator >= size * NEAR_FULL_SHARE.numerator ? "nearFull" : "ok";
}

/**
 * The number the `ticket`-th order (1-based) of a shift shows: from `first` one after
 * another, and after `last` round again from `first`. A ticket whose number is still open is
 * skipped by the caller, which takes the next ticket: the number itself is not spent, it
 * comes round again. (A shift's `firstNumber` moves the default series only, whose tickets
 * are its numbers; a series' tickets start at 1 each shift.)
 */
export function numberOfTicket(s: Pick<Series, "first" | "last">, ticket: number): number {
  if (!Number.isSafeInteger(ticket) || ticket < 1) throw new AppError("INTERNAL", { message: `ticket ${ticket} is not a positive whole number` });
  if (s.last === null) return s.first + ticket - 1;
  return s.first + ((ticket - 1) % seriesSize(s));
}

/** The first number from `start` up that no open order shows: what a new shift's next order gets. */
export function firstFreeNumber(start: number, open: ReadonlySet<number>): number {
  let n = start;
  while (open.has(n)) n++;
  return n;
}

export { displayNumber };

/** The 409 of a series whose every number is still open: nothing is spent. */
export function seriesFull(s: Pick<Series, "name" | "prefix" | "first" | "last">): AppError {
  const range = `${displayNumber(s.prefix, s.first)}–${displayNumber(s.prefix, s.last ?? s.first)}`;
  return new AppError("SERIES_FULL", {
    message: `All numbers ${range} are still open; collect or clear some`,
    details: { series: s.name, first: displayNumber(s.prefix, s.first), last: displayNumber(s.prefix, s.last ?? s.first) },
    reason: "seriesFull",
  });
}

/** What a cook typed: `K12`, `k12`, ` 12 ` → a prefix (or none said) and a number; null for anything else. */
export function parseTypedNumber(text: string): { prefix: string | null; number: number } | null {
  const m = /^\s*([A-Za-z]{1,3})?\s*(\d{1,8})\s*$/.exec(text);
  if (!m) return null;
  const number = Number(m[2]);
  if (number < 1) return null;
  return { prefix: m[1] ? m[1].toUpperCase() : null, number };
}

/**
 * The open orders that show a typed number: with a prefix, that displayed number only;
 * without one, every open order with that number (kitchen.ts `matchTypedNumber` says which is meant).
 */
export function matchTyped<T extends { prefix: string; number: number }>(typed: { prefix: string | null; number: number }, open: readonly T[]): T[] {
  return open.filter((o) => o.number === typed.number && (typed.prefix === null || o.prefix === typed.prefix));
}
