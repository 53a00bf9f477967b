/**
 * One error type for every expected failure. Each edge (route handler, server action,
 * socket acknowledgement, CLI) translates it once: `httpStatus` for HTTP, `userMessage`
 * for people, `message` for logs. Anything that is not an AppError is a bug and is
 * reported as INTERNAL without leaking its message.
 */
export const ERROR_STATUS = {
  BAD_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  /** Every number of a wrapping series is still open (decision 0027): nothing was spent. */
  SERIES_FULL: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Marks AppErrors across module copies: Next.js bundles its own copy of this module for
 * route handlers and server actions, apart from server.ts's, so `instanceof` fails for an
 * AppError thrown by a service built in server.ts. A registered symbol is shared.
 */
const APP_ERROR = Symbol.for("nextup.AppError");

export class AppError extends Error {
  readonly [APP_ERROR] = true;
  readonly code: ErrorCode;
  /** Safe to show to staff or customers. */
  readonly userMessage: string;
  /** Extra structured detail returned to API clients (e.g. which field was bad). */
  readonly details?: unknown;
  /**
   * A stable name for this particular failure (e.g. "wrongCode"): screens show the
   * message of that name in their language, with `details` as its values.
   */
  readonly reason?: string;

  constructor(code: ErrorCode, opts: { message: string; userMessage?: string; details?: unknown; reason?: string; cause?: unknown }) {
    super(opts.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.userMessage = opts.userMessage ?? opts.message;
    this.details = opts.details;
    this.reason = opts.reason;
  }

  get httpStatus(): number {
    return ERROR_STATUS[this.code];
  }
}

export function isAppError(e: unknown): e is AppError {
  return typeof e === "object" && e !== null && (e as { [APP_ERROR]?: unknown })[APP_ERROR] === true;
}

/** The wire shape of every error: `{"error":{"code","message"}}`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

export function toErrorBody(e: unknown): { status: number; body: ErrorBody } {
  if (isAppError(e)) {
    const error: ErrorBody["error"] = { code: e.code, message: e.userMessage };
    if (e.details !== undefined) error.details = e.details;
    return { status: e.httpStatus, body: { error } };
  }
  return {
    status: 500,
    body: { error: { code: "INTERNAL", message: "Something went wrong on our side. Please try again." } },
  };
}
