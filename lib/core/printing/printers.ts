/**
 * A receipt printer of a restaurant (issue #22): its fields, the rules a manager's form and
 * the REST API check them by, and which printer prints an order's ticket. Pure.
 */
import { z } from "zod";
import { CHANNELS } from "../orders";
import { DEFAULT_SERIES_ID } from "../series";
import { lineText } from "../text";
import { DEFAULT_PRINTER_PORT, printerHostProblem } from "./printer-network";

export const PAPERS = ["80mm", "58mm"] as const;
export type PaperWidth = (typeof PAPERS)[number];

/** latin: Western printers (receiptline's 'multilingual' code pages); gb18030: printers with a Chinese font. */
export const CHARSETS = ["latin", "gb18030"] as const;
export type Charset = (typeof CHARSETS)[number];

export const PRINTER_STATUSES = ["ok", "offline", "paperOut", "coverOpen", "unknown"] as const;
export type PrinterStatus = (typeof PRINTER_STATUSES)[number];

export const MAX_PRINTER_NAME = 60;
/** Most channels or series one printer may serve. */
export const MAX_PRINTER_LINKS = 20;

export interface PrinterFields {
  name: string;
  host: string;
  port: number;
  paper: PaperWidth;
  charset: Charset;
  channels: string[];
  /** Series ids: a series' UUID, or DEFAULT_SERIES_ID for the default series (it has no row). */
  series: string[];
}

const hostSchema = z
  .string({ error: "Host must be text" })
  .trim()
  .superRefine((host, ctx) => {
    const problem = printerHostProblem(host);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const UUID = z.uuid();
const unique = <T>(xs: readonly T[]) => new Set(xs).size === xs.length;

const fields = {
  name: lineText("Name").pipe(z.string().min(1, "Name is required").max(MAX_PRINTER_NAME, `Name must be at most ${MAX_PRINTER_NAME} characters`)),
  host: hostSchema,
  port: z
    .number({ error: "Port must be a whole number" })
    .int("Port must be a whole number")
    .min(1, "Port must be between 1 and 65535")
    .max(65_535, "Port must be between 1 and 65535"),
  paper: z.enum(PAPERS, { error: `Paper must be one of ${PAPERS.join(", ")}` }),
  charset: z.enum(CHARSETS, { error: `Characters must be one of ${CHARSETS.join(", ")}` }),
  channels: z
    .array(z.enum(CHANNELS, { error: `Channels must be among ${CHANNELS.join(", ")}` }), { error: "channels must be a list of channels" })
    .max(MAX_PRINTER_LINKS, `A printer serves at most ${MAX_PRINTER_LINKS} channels`)
    .refine(unique, "A channel is listed twice"),
  series: z
    .array(
      z
        .string({ error: "Series must be series ids" })
        .refine((id) => id === DEFAULT_SERIES_ID || UUID.safeParse(id).success, `Series must be series ids (a UUID, or "${DEFAULT_SERIES_ID}")`),
      { error: "series must be a list of series ids" },
    )
    .max(MAX_PRINTER_LINKS, `A printer serves at most ${MAX_PRINTER_LINKS} series`)
    .refine(unique, "A series is listed twice"),
};

/** A new printer (REST and console). `charset` may be left out: the service picks one from the restaurant's language. */
export const newPrinterSchema = z.strictObject({
  name: fields.name,
  host: fields.host,
  port: fields.port.default(DEFAULT_PRINTER_PORT),
  paper: fields.paper.default("80mm"),
  charset: fields.charset.optional(),
  channels: fields.channels.default([]),
  series: fields.series.default([]),
});

/** A change to a printer: any of its fields, at least one. */
export const printerPatchSchema = z
  .strictObject(fields)
  .partial()
  .refine((p) => Object.values(p).some((v) => v !== undefined), "Change at least one field");

export type NewPrinter = z.output<typeof newPrinterSchema>;
export type PrinterPatch = z.output<typeof printerPatchSchema>;

export interface PrinterRouting {
  id: string;
  name: string;
  channels: readonly string[];
  series: readonly string[];
}

/**
 * Which printer prints an order's ticket: the kiosk device's own choice if it names one of
 * `printers`; else the first printer (by name) whose series include the order's series id;
 * else the first whose channels include the order's channel; else null. A printer with no
 * channels and no series only prints for devices that choose it. An order of the default
 * series has `seriesId` null; printers name that series DEFAULT_SERIES_ID.
 */
export function printerForOrder(
  printers: readonly PrinterRouting[],
  order: { channel: string; seriesId: string | null },
  devicePrinterId?: string | null,
): string | null {
  if (devicePrinterId && printers.some((p) => p.id === devicePrinterId)) return devicePrinterId;
  const byName = [...printers].sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seriesId = order.seriesId ?? DEFAULT_SERIES_ID;
  return byName.find((p) => p.series.includes(seriesId))?.id ?? byName.find((p) => p.channels.includes(order.channel))?.id ?? null;
}
