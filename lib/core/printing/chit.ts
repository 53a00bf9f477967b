/**
 * A station's kitchen chit (issue #40): which chits an order prints, and what one says — the
 * station, the number, only that station's lines (with their options, notes and sold-out
 * flags), eat in or take away, the whole note, the channel and the time taken. No prices and no QR code: it is for the cooks, not the customer. Pure.
 */
import type { Locale } from "../locales";
import { displayNumber } from "../display-number";
import type { PrintTarget, WaitingJob } from "../ports";
import type { OrderPart, Station } from "../stations";
import { printLine, printLocale, stamp } from "./print-content";
import type { Charset } from "./printers";
import { serviceWord, textColumns, ticketLabels, type PrintLine } from "./ticket";

/** One chit per part of the order whose station has a printer, in the parts' order. */
export function chitsFor(stations: readonly Pick<Station, "id" | "printerId">[], parts: readonly Pick<OrderPart, "id">[]) {
  const printerOf = new Map(stations.map((s) => [s.id, s.printerId]));
  return parts.flatMap((p) => {
    const printerId = printerOf.get(p.id);
    return printerId ? [{ printerId, stationId: p.id }] : [];
  });
}

export interface ChitContent {
  /** The station's name as the order's part has it. */
  station: string;
  /** The displayed number, e.g. "K12". */
  number: string;
  items: PrintLine[];
  /** "TAKE AWAY" or "EAT IN" in the restaurant's language (the cooks pack or plate); null when the order does not say. */
  service: string | null;
  /** The whole note (it may be an allergy): the layout wraps it, never cuts it. */
  note: string | null;
  /** The channel in the restaurant's language ("Delivery"). */
  channel: string;
  /** Already formatted local time. */
  takenAt: string;
  labels: { note: string; soldOut: string };
}

const CHANNEL_WORDS: Record<Locale, Record<string, string>> = {
  en: { kiosk: "Kiosk", counter: "Counter", api: "API", pos: "POS", delivery: "Delivery", phone: "Phone", web: "Web" },
  "zh-CN": { kiosk: "点餐台", counter: "柜台", api: "接口", pos: "收银", delivery: "外卖", phone: "电话", web: "网上" },
};

/** A channel in `locale`; one without a word prints as it is stored. */
export const channelWord = (channel: string, locale: Locale): string => CHANNEL_WORDS[locale][channel] ?? channel;

/** The chit of a chit job; null when there is nothing to print (its order is gone, or has no such part). */
export function chitContent(target: PrintTarget, job: WaitingJob): ChitContent | null {
  const order = job.order;
  const part = order?.stations.find((p) => p.id === job.stationId);
  if (!order || !part) return null;
  const locale = printLocale(target);
  const labels = ticketLabels(locale);
  return {
    station: part.name,
    number: displayNumber(order.prefix, order.number),
    items: order.items.filter((i) => i.stationId === part.id).map(printLine),
    service: serviceWord(order.service, locale),
    note: order.note,
    channel: channelWord(order.channel, locale),
    takenAt: stamp(order.createdAt, target.timeZone, locale),
    labels: { note: labels.note, soldOut: labels.soldOut },
  };
}

/**
 * `text` in lines of at most `width` columns (textColumns on a `charset` printer), broken
 * between words; a word longer than a line is broken inside. Nothing is dropped but the
 * spaces at the breaks.
 */
export function wrapWords(text: string, width: number, charset?: Charset): string[] {
  const lines: string[] = [];
  let line = "";
  const push = (word: string) => {
    const joined = line ? `${line} ${word}` : word;
    if (textColumns(joined, charset) <= width) {
      line = joined;
      return;
    }
    if (line) lines.push(line);
    line = "";
    let rest = "";
    for (const c of word) {
      if (textColumns(rest + c, charset) > width) {
        lines.push(rest);
        rest = "";
      }
      rest += c;
    }
    line = rest;
  };
  // A lone mark ("·" between a dish's options, a dash) stays at the end of the line before, never starts one.
  const words = text
    .split(/\s+/)
    .filter(Boolean)
    .reduce<string[]>((ws, w) => (ws.length > 0 && /^[\p{P}\p{S}]$/u.test(w) ? [...ws.slice(0, -1), `${ws.at(-1)} ${w}`] : [...ws, w]), []);
  for (const word of words) push(word);
  if (line) lines.push(line);
  return lines;
}
