/**
 * A printer's state from its real-time status replies (ESC/POS `DLE EOT n`): the three
 * requests sent, and how their one-byte answers read as ok, offline, out of paper or cover
 * open. Many network adapters do not answer at all: that reads "unknown" and printing is
 * still attempted. Pure.
 */
import type { PrinterStatus } from "./printers";

/** What a restaurant reads of every way a printer fails to answer: closed, silent, dropped, reset, unreachable (decision 0040). */
export const PRINTER_DID_NOT_ANSWER = "the printer did not answer";

/** DLE EOT 1: transmit printer status. */
export const STATUS_PRINTER = Uint8Array.of(0x10, 0x04, 0x01);
/** DLE EOT 2: transmit offline cause. */
export const STATUS_OFFLINE_CAUSE = Uint8Array.of(0x10, 0x04, 0x02);
/** DLE EOT 4: transmit roll paper sensor status. */
export const STATUS_PAPER = Uint8Array.of(0x10, 0x04, 0x04);
/** The three requests, in the order they are sent. */
export const STATUS_REQUESTS = [STATUS_PRINTER, STATUS_OFFLINE_CAUSE, STATUS_PAPER] as const;

/** Bits every status reply has: bit 1 and bit 4 set, bit 0 and bit 7 clear. */
const FIXED_MASK = 0x93;
const FIXED_VALUE = 0x12;
/** DLE EOT 1, bit 3: offline. */
export const PRINTER_OFFLINE = 0x08;
/** DLE EOT 2, bit 2: cover open. */
export const CAUSE_COVER_OPEN = 0x04;
/** DLE EOT 2, bit 5: printing stopped at paper end. */
export const CAUSE_PAPER_END = 0x20;
/** DLE EOT 2, bit 6: an error occurred. */
export const CAUSE_ERROR = 0x40;
/** DLE EOT 4, bits 5–6: roll paper end detected (bits 2–3 are "near end": still printing). */
export const PAPER_END = 0x60;

/** One byte of each reply; undefined where none came. */
export interface StatusReplies {
  printer?: number;
  offline?: number;
  paper?: number;
}

/** Whether `b` is a status reply byte (fixed bits as the ESC/POS spec sets them). */
export const isStatusByte = (b: number | undefined): b is number => b !== undefined && Number.isInteger(b) && (b & FIXED_MASK) === FIXED_VALUE;

/**
 * What the replies say, most specific first: paper out, cover open, another error or offline,
 * else ok. Any missing or malformed reply → "unknown" (a partial answer is not trusted).
 */
export function statusFromReplies(r: StatusReplies): PrinterStatus {
  if (!isStatusByte(r.printer) || !isStatusByte(r.offline) || !isStatusByte(r.paper)) return "unknown";
  if ((r.paper & PAPER_END) !== 0 || (r.offline & CAUSE_PAPER_END) !== 0) return "paperOut";
  if ((r.offline & CAUSE_COVER_OPEN) !== 0) return "coverOpen";
  if ((r.offline & CAUSE_ERROR) !== 0 || (r.printer & PRINTER_OFFLINE) !== 0) return "offline";
  return "ok";
}
