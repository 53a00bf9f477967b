/**
 * Reads ESC/POS bytes back for tests: the text of each line (code pages and GB18030 Kanji
 * mode decoded), the QR payloads stored with GS ( k, cuts, magnified runs and raster images.
 * Knows the length of every command receiptline emits and throws on any other, so a test
 * notices bytes it does not understand instead of reading them as text.
 */
import iconv from "iconv-lite";
import type { Charset } from "@/lib/core/printing/printers";

export interface ScaledRun {
  text: string;
  width: number;
  height: number;
}

export interface DecodedEscPos {
  /** Text of each line (LF), trimmed; a jump of the print position reads as one space. */
  lines: string[];
  /** Payloads stored with GS ( k cn=49 fn=80 (QR Code). */
  qr: string[];
  /** QR module sizes set with GS ( k fn=67. */
  qrModuleSizes: number[];
  /** GS V. */
  cuts: number;
  /** Text runs with the GS ! magnification they print at. */
  scales: ScaledRun[];
  /** Raster images (GS 8 L, GS v 0, ESC *). */
  images: number;
  /** Barcodes (GS k). */
  barcodes: number;
}

/** ESC t n → the code page iconv-lite decodes (receiptline's 'multilingual' pages). */
const CODEPAGES: Record<number, string> = { 0: "cp437", 16: "cp1252", 17: "cp866", 18: "cp852", 19: "cp858" };
/** ESC t 1 is the page receiptline draws rules with (0x95 horizontal, 0x96 vertical …). */
const RULE_PAGE = 1;

const ESC = 0x1b;
const FS = 0x1c;
const GS = 0x1d;
const DLE = 0x10;

export function decodeEscPos(bytes: Buffer, charset: Charset): DecodedEscPos {
  const out: DecodedEscPos = { lines: [], qr: [], qrModuleSizes: [], cuts: 0, scales: [], images: 0, barcodes: 0 };
  let page = 0;
  let kanji = false;
  let scale = { width: 1, height: 1 };
  let line = "";
  let run = "";
  let pending: number[] = [];

  const decodeText = (b: number[]): string => {
    const buf = Buffer.from(b);
    if (kanji) {
      if (charset !== "gb18030") throw new Error("Kanji mode (FS &) in bytes for a latin printer");
      return iconv.decode(buf, "gb18030");
    }
    if (page === RULE_PAGE) return Array.from(buf, (c) => (c < 0x80 ? String.fromCharCode(c) : c === 0x96 ? "│" : "─")).join("");
    const cp = CODEPAGES[page];
    if (!cp) throw new Error(`ESC t ${page}: a code page this decoder does not know`);
    return iconv.decode(buf, cp);
  };
  const flush = () => {
    if (pending.length === 0) return;
    const t = decodeText(pending);
    pending = [];
    line += t;
    run += t;
  };
  const endRun = () => {
    flush();
    if (run.trim()) out.scales.push({ text: run.trim(), ...scale });
    run = "";
  };
  const endLine = () => {
    endRun();
    out.lines.push(line.replace(/ {2,}/g, " ").trim());
    line = "";
  };
  const space = () => {
    flush();
    if (line && !line.endsWith(" ")) {
      line += " ";
      run += " ";
    }
  };
  const u16 = (i: number) => bytes[i]! + 256 * bytes[i + 1]!;
  const need = (i: number, n: number) => {
    if (i + n > bytes.length) throw new Error(`command at ${i} runs past the end (${n} bytes needed)`);
    return n;
  };

  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b === 0x0a) {
      endLine();
      i++;
      continue;
    }
    if (b === 0x0d) {
      i++;
      continue;
    }
    if (b >= 0x20 || b === 0x09) {
      pending.push(b === 0x09 ? 0x20 : b);
      i++;
      continue;
    }
    flush();
    const c = bytes[i + 1];
    if (b === ESC) {
      const ch = String.fromCharCode(c ?? 0);
      if (ch === "@") {
        page = 0;
        kanji = false;
        scale = { width: 1, height: 1 };
        i += 2;
      } else if (ch === "2") i += 2;
      else if (ch === "$" || ch === "\\") {
        if (u16(i + 2) !== 0) space();
        i += need(i, 4);
      } else if (ch === "t") {
        page = bytes[i + 2]!;
        i += need(i, 3);
      } else if (ch === "!") {
        endRun();
        i += need(i, 3);
      } else if ("aM R-E{3JdGUrc".includes(ch)) i += need(i, 3);
      else if (ch === "*") {
        const m = bytes[i + 2]!;
        out.images++;
        i += need(i, 5 + u16(i + 3) * (m <= 1 ? 1 : 3));
      } else throw new Error(`unknown command ESC 0x${(c ?? 0).toString(16)} at ${i}`);
      continue;
    }
    if (b === FS) {
      const ch = String.fromCharCode(c ?? 0);
      if (ch === "&") {
        kanji = true;
        i += 2;
      } else if (ch === ".") {
        kanji = false;
        i += 2;
      } else if ("C-!W".includes(ch)) i += need(i, 3);
      else if (ch === "S") i += need(i, 4);
      else if (ch === "(") i += need(i, 5 + u16(i + 3));
      else throw new Error(`unknown command FS 0x${(c ?? 0).toString(16)} at ${i}`);
      continue;
    }
    if (b === GS) {
      const ch = String.fromCharCode(c ?? 0);
      if (ch === "!") {
        endRun();
        const n = bytes[i + 2]!;
        scale = { width: (n >> 4) + 1, height: (n & 0x0f) + 1 };
        i += need(i, 3);
      } else if ("aBrwhHfb".includes(ch)) i += need(i, 3);
      else if (ch === "L" || ch === "W") i += need(i, 4);
      else if (ch === "V") {
        out.cuts++;
        i += need(i, [0, 1, 48, 49].includes(bytes[i + 2]!) ? 3 : 4);
      } else if (ch === "(") {
        const len = u16(i + 3);
        need(i, 5 + len);
        if (bytes[i + 2] === 0x6b && bytes[i + 5] === 0x31) {
          const fn = bytes[i + 6];
          if (fn === 0x50) out.qr.push(bytes.subarray(i + 8, i + 5 + len).toString("utf8"));
          if (fn === 0x43) out.qrModuleSizes.push(bytes[i + 7]!);
        }
        i += 5 + len;
      } else if (ch === "8" && bytes[i + 2] === 0x4c) {
        out.images++;
        i += need(i, 7 + bytes.readUInt32LE(i + 3));
      } else if (ch === "v" && bytes[i + 2] === 0x30) {
        out.images++;
        i += need(i, 8 + u16(i + 4) * u16(i + 6));
      } else if (ch === "k") {
        out.barcodes++;
        const m = bytes[i + 2]!;
        if (m <= 6) {
          const end = bytes.indexOf(0, i + 3);
          i = end < 0 ? bytes.length : end + 1;
        } else i += need(i, 4 + bytes[i + 3]!);
      } else throw new Error(`unknown command GS 0x${(c ?? 0).toString(16)} at ${i}`);
      continue;
    }
    if (b === DLE && (c === 0x04 || c === 0x05)) {
      i += need(i, 3);
      continue;
    }
    throw new Error(`unknown control byte 0x${b.toString(16)} at ${i}`);
  }
  if (pending.length > 0 || line) endLine();
  return out;
}
