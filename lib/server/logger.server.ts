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
