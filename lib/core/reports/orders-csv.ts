/**
 * The orders export as CSV (RFC 4180): CRLF line ends, fields holding a comma, a quote or
 * a line break are quoted with quotes doubled. A text cell that a spreadsheet would run
 * as a formula is prefixed with an apostrophe (OWASP's "CSV injection" advice).
 */
import { lineLabel } from "../menu-options";
import { formatCents } from "../menu";
import { orderTotal } from "../money";
import type { Order, OrderItem } from "../orders";
import { displayNumber, seriesNameOf } from "../series";

/** What a spreadsheet may take as a formula when it opens a cell (OWASP), plus the full-width forms CJK input methods type. */
const FORMULA_START = /^[=+\-@\t\r＝＋－＠]/;

/** The cell as text a spreadsheet shows, never runs. */
export function guardFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One RFC 4180 field. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One CSV line, CRLF included; every cell goes through the formula guard. */
export function csvLine(cells: readonly (string | number | null)[]): string {
  return `${cells.map((c) => (c === null ? "" : csvField(guardFormula(String(c))))).join(",")}\r\n`;
}

export const ORDER_CSV_COLUMNS = [
  "businessDay",
  "shift",
  "number",
  "status",
  "channel",
  "createdAt",
  "readyAt",
  "collectedAt",
  "cancelledAt",
  "items",
  "note",
  // Number series (decision 0027), after the columns of before: a file read by position still reads them.
  "series",
  "prefix",
  "display",
  // Who marked it ready (issue #38; the latest move to READY), last again: empty when no one is known.
  "readyBy",
  // Its service and what it came to (issue #41), last again: a file read by position keeps its columns.
  "service",
  "currency",
  "total",
  "unpricedLines",
  "unitPrices",
] as const;

/** "2× Beef noodles · Large · Extra spicy (no coriander); 1× Tea": a line's options and note only where it has them. */
export function itemsText(items: readonly OrderItem[]): string {
  return items.map((i) => `${i.qty}× ${lineLabel(i)}${i.note ? ` (${i.note})` : ""}`).join("; ");
}

/** Each line's unit price (options included) in major units, in the lines' order; an empty entry for a line without one. */
export function unitPricesText(items: readonly OrderItem[]): string {
  return items.map((i) => (i.priceCents === undefined ? "" : formatCents(i.priceCents))).join("; ");
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * `readyBy`: who marked it ready last (null or absent: nobody known, an empty cell).
 * `currency`: the restaurant's now (orders do not keep one), null when it set none.
 */
export function orderCsvCells(o: Order & { readyBy?: string | null }, currency: string | null): (string | number | null)[] {
  const total = orderTotal(o.items);
  return [
    o.businessDay,
    o.shift,
    o.number,
    o.status,
    o.channel,
    iso(o.createdAt),
    iso(o.readyAt),
    iso(o.collectedAt),
    iso(o.cancelledAt),
    itemsText(o.items),
    o.note,
    seriesNameOf(o),
    o.prefix,
    displayNumber(o.prefix, o.number),
    o.readyBy ?? null,
    o.service,
    currency,
    total ? formatCents(total.cents) : null,
    total ? total.unpriced : o.items.length,
    unitPricesText(o.items),
  ];
}

export const orderCsvHeader = (): string => csvLine(ORDER_CSV_COLUMNS);
export const orderCsvLine = (o: Order & { readyBy?: string | null }, currency: string | null): string => csvLine(orderCsvCells(o, currency));
