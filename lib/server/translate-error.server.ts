/**
 * The one place where failures of our dependencies become AppErrors: Redis or
 * PostgreSQL unreachable is 503 (the client may retry), never a bare 500.
 */
import { AppError, isAppError } from "@/lib/core/errors";

const REDIS_DOWN =
  /Connection is closed|Command timed out|ECONNREFUSED|ECONNRESET|ETIMEDOUT|MaxRetriesPerRequest|Stream isn't writeable|enableOfflineQueue|CLUSTERDOWN|LOADING|READONLY|connect ETIMEDOUT/i;

export function translateError(e: unknown): AppError | null {
  if (isAppError(e)) return e;
  if (!(e instanceof Error)) return null;
  const name = e.constructor?.name ?? e.name;
  const code = (e as { code?: unknown }).code;
  if (name === "PrismaClientInitializationError" || code === "P1001" || code === "P1002" || code === "P1017" || code === "P2024") {
    return new AppError("UNAVAILABLE", {
      message: `Database unavailable: ${e.message}`,
      userMessage: "The database is unavailable. Please try again in a moment.",
      cause: e,
    });
  }
  if (name === "DriverAdapterError" || /database system is|Connection terminated|too many clients|ECONNREFUSED.*5432/i.test(e.message)) {
    return new AppError("UNAVAILABLE", {
      message: `Database unavailable: ${e.message}`,
      userMessage: "The database is unavailable. Please try again in a moment.",
      cause: e,
    });
  }
  if (REDIS_DOWN.test(e.message) || name === "MaxRetriesPerRequestError") {
    return new AppError("UNAVAILABLE", {
      message: `Redis unavailable: ${e.message}`,
      userMessage: "The number counter is unavailable. Please try again in a moment.",
      cause: e,
    });
  }
  return null;
}

/** Like translateError, but every unknown failure becomes INTERNAL (and should be logged as a bug). */
export function toAppError(e: unknown): AppError {
  return (
    translateError(e) ??
    new AppError("INTERNAL", {
      message: e instanceof Error ? e.message : String(e),
      userMessage: "Something went wrong on our side. Please try again.",
      cause: e,
    })
  );
}
