import { expect } from "vitest";
import { AppError } from "@/lib/core/errors";

/** Runs `fn`, which must throw an AppError, and returns it for the test to read. */
export function fails(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error("expected an AppError, nothing was thrown");
}
