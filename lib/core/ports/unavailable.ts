/**
 * What every adapter raises when its store cannot be reached: the request may be retried
 * later, and the edges answer 503 (decision 0003).
 */

/** The stores behind the ports. */
export type Store = "database" | "redis";

/** Marks UnavailableErrors across module copies (Next.js bundles its own copy of lib/core), as AppError's mark does. */
const UNAVAILABLE = Symbol.for("nextup.UnavailableError");

/**
 * Raised by an adapter when its store cannot be reached (refused, reset, timed out, shut
 * down, out of connections): the request may be retried later, and the edges answer 503.
 */
export class UnavailableError extends Error {
  readonly [UNAVAILABLE] = true;
  constructor(
    readonly store: Store,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "UnavailableError";
  }
}

export function isUnavailableError(e: unknown): e is UnavailableError {
  return typeof e === "object" && e !== null && (e as { [UNAVAILABLE]?: unknown })[UNAVAILABLE] === true;
}
