/**
 * Text people type (names, notes, reasons): no control characters, no broken UTF-16 and no
 * invisible format characters. PostgreSQL refuses NUL outright (a 500 that burned a number),
 * the other controls corrupt tickets, logs and CSV files, and bidi overrides or isolates
 * (U+202E …) make a kitchen read text other than what is stored. A multi-line field keeps
 * line breaks and tabs. The joiners U+200C/U+200D stay: emoji sequences and scripts need them.
 */
import { z } from "zod";

const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Format characters (bidi controls, zero-width spaces, BOM, soft hyphen …) but the two joiners. */
const FORMAT = /(?![\u200C\u200D])\p{Cf}/u;

export const isCleanLine = (s: string): boolean => !CONTROL.test(s) && !LONE_SURROGATE.test(s) && !FORMAT.test(s);
export const isCleanText = (s: string): boolean => !CONTROL_BUT_LINES.test(s) && !LONE_SURROGATE.test(s) && !FORMAT.test(s);

/** A one-line text field named `what` in messages, trimmed. */
export const lineText = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .refine(isCleanLine, `${what} contains a control character, an invisible formatting character or broken text`);

/** A text field that may span lines (a note), trimmed. */
export const multilineText = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .refine(isCleanText, `${what} contains a control character, an invisible formatting character or broken text`);
