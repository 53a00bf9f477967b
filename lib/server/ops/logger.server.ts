/**
 * Structured logs (pino) to stderr: one JSON object a line in production, readable lines
 * (pino-pretty, a dev dependency) in development. Every line written while a request is
 * handled carries its `reqId` and `tenant` (lib/server/ops/request-context.server.ts). Secrets
 * never reach a log line: the redact list covers every field that could carry one.
 */
import { createRequire } from "node:module";
import pino, { type DestinationStream, type Logger } from "pino";
import { requestLogFields } from "./request-context.server";

export type { Logger };

/** Field paths censored wherever they appear in a logged object (one level deep, and in headers). */
export const REDACTED_PATHS = [
  "secret",
  "password",
  "apiKey",
  "token",
  "authorization",
  "cookie",
  "*.secret",
  "*.password",
  "*.apiKey",
  "*.token",
  "*.authorization",
  "*.cookie",
  "headers.cookie",
  'headers["set-cookie"]',
  "*.headers.authorization",
  "*.headers.cookie",
  '*.headers["set-cookie"]',
];

/** `pretty`: readable lines (development); `destination`: somewhere other than stderr (tests). */
export function createLogger(level: string, opts: { pretty?: boolean; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level,
      base: { service: "nextup" },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      mixin: requestLogFields,
    },
    opts.destination ?? ((opts.pretty && prettyStream()) || pino.destination(2)),
  );
}

/** pino-pretty writing to stderr, or null where it is not installed (`npm ci --omit=dev`): then JSON. */
function prettyStream(): DestinationStream | null {
  let pretty: typeof import("pino-pretty");
  try {
    pretty = createRequire(import.meta.url)("pino-pretty") as typeof pretty;
  } catch {
    process.stderr.write("nextup: pino-pretty is not installed (a dev dependency); logging JSON\n");
    return null;
  }
  return pretty({ destination: 2, sync: true, colorize: process.stderr.isTTY, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" });
}

/**
 * A URL as it may be logged: the password (and a user name, which may be a token) replaced,
 * e.g. "redis://:s3cret@cache:6379" → "redis://***@cache:6379". Not a URL: "[unparsable URL]".
 */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "[unparsable URL]";
  }
  if (!url.username && !url.password) return url.href;
  url.username = "***";
  url.password = "";
  return url.href;
}
