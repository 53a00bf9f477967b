/** What a waiting print job says on paper, in the restaurant's language: an order's ticket or a test page (a chit: chit.ts). Pure. */
import { asLocale, DEFAULT_LOCALE, type Locale } from "../locales";
import { formatMoney, orderTotal } from "../money";
import { displayNumber } from "../display-number";
import { lineLabel } from "../menu-options";
import type { OrderItem } from "../orders";
import type { PrintTarget, WaitingJob } from "../ports";
import { serviceWord, testPageLines, ticketLabels, type PrintLine, type TestPageContent, type TicketContent } from "./ticket";
import type { Charset } from "./printers";

/** A new printer's character set when none is given: GB18030 where the restaurant reads Chinese. */
export const defaultCharset = (language: Locale | null): Charset => (language === "zh-CN" ? "gb18030" : "latin");

/** The ticket's language: the restaurant's; without one, Chinese on a GB18030 printer, else English. */
export function printLocale(target: Pick<PrintTarget, "language" | "charset">): Locale {
  return asLocale(target.language) ?? (target.charset === "gb18030" ? "zh-CN" : DEFAULT_LOCALE);
}

/** "26/11 19:42" in the restaurant's time zone (24-hour in every language). */
export function stamp(at: Date, timeZone: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : locale, {
    timeZone,
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
}

/** An order line as paper prints it: the dish with its options, the line's note, and whether it was sold out. */
export const printLine = (item: OrderItem): PrintLine => ({
  name: lineLabel(item),
  quantity: item.qty,
  note: item.note || null,
  soldOut: item.soldOut === true,
});

/** The ticket of an order job; null for a job whose order is gone (nothing to print). */
export function ticketContent(target: PrintTarget, job: WaitingJob): TicketContent | null {
  const order = job.order;
  if (!order || !job.url) return null;
  const locale = printLocale(target);
  const total = orderTotal(order.items);
  return {
    restaurant: target.restaurant,
    number: displayNumber(order.prefix, order.number),
    items: order.items.map((i) => ({
      ...printLine(i),
      price: i.priceCents === undefined ? null : formatMoney(i.priceCents * i.qty, locale, target.currency),
    })),
    service: serviceWord(order.service, locale),
    note: order.note,
    takenAt: stamp(order.createdAt, target.timeZone, locale),
    total: total ? formatMoney(total.cents, locale, target.currency) : null,
    url: job.url,
    labels: ticketLabels(locale),
  };
}

/** A printer's test page, printed `at`. */
export function testPageContent(target: PrintTarget, at: Date): TestPageContent {
  const locale = printLocale(target);
  return {
    restaurant: target.restaurant,
    printerName: target.name,
    at: stamp(at, target.timeZone, locale),
    paper: target.paper,
    charset: target.charset,
    lines: testPageLines(locale, target),
  };
}
