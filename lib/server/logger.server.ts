/**
 * Structured logs (pino) to stderr. Secrets never reach a log line: the redact list
 * covers every field that could carry one.
 */
import pino, { type Logger } from "pino";

export type { Logger };

export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: "nextup" },
      redact: {
        paths: ["secret", "password", "apiKey", "authorization", "*.secret", "*.password", "*.apiKey", "*.authorization", "headers.cookie"],
        censor: "[redacted]",
      },
    },
    pino.destination(2),
  );
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
