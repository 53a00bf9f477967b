/**
 * Text people type (names, notes, reasons): no control characters and no broken UTF-16.
 * PostgreSQL refuses NUL outright (a 500 that burned a number), and the other controls
 * corrupt tickets, logs and CSV files. A multi-line field keeps line breaks and tabs.
 */
import { z } from "zod";

const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isCleanLine = (s: string): boolean => !CONTROL.test(s) && !LONE_SURROGATE.test(s);
export const isCleanText = (s: string): boolean => !CONTROL_BUT_LINES.test(s) && !LONE_SURROGATE.test(s);

/** A one-line text field named `what` in messages, trimmed. */
export const lineText = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .refine(isCleanLine, `${what} contains a control character or broken text`);

/** A text field that may span lines (a note), trimmed. */
export const multilineText = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .refine(isCleanText, `${what} contains a control character or broken text`);
