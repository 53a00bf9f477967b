/** What one restaurant may hold of the shared printing (decision 0039), and the refusals when it is full. */
import { AppError } from "../errors";

export interface PrintLimits {
  /** Printers per restaurant. */
  printers: number;
  /** Print jobs waiting (queued or being sent) per restaurant. */
  waitingJobs: number;
}

/** Generous enough for anyone who has not set them: stores built without limits (tests, tools). */
export const NO_PRINT_LIMITS: PrintLimits = { printers: Number.MAX_SAFE_INTEGER, waitingJobs: Number.MAX_SAFE_INTEGER };

export const tooManyPrinters = (max: number) =>
  new AppError("CONFLICT", {
    message: `the restaurant already has ${max} printers (PRINTERS_PER_RESTAURANT)`,
    userMessage: `A restaurant may have at most ${max} printers: delete one first.`,
    reason: "tooManyPrinters",
    details: { max },
  });

export const tooManyWaiting = (max: number) =>
  new AppError("RATE_LIMITED", {
    message: `the restaurant already has ${max} print jobs waiting (PRINT_JOBS_WAITING_PER_RESTAURANT)`,
    userMessage: `${max} print jobs are already waiting for this restaurant's printers: wait until some have printed, or check the printers.`,
    reason: "tooManyPrintJobs",
    details: { max },
  });

/** Why an order's ticket was not queued when the restaurant's waiting jobs were full: shown on its job. */
export const waitingFullReason = (max: number) => `not printed: ${max} print jobs were already waiting for this restaurant's printers`;
