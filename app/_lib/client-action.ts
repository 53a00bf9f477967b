/**
 * For client components: calls a staff server action and turns a failed request (Wi-Fi
 * gone, server restarting) into the same readable `{ ok: false }` the action returns for
 * its own errors, instead of crashing the screen into the error boundary.
 */
type Failure = { ok: false; error: string; code: string };

export async function callAction<S extends { ok: boolean } | null>(
  action: (prev: S, form: FormData) => Promise<S>,
  prev: S,
  form: FormData,
  /** In the screen's language, e.g. common.errors.connectionLost. */
  offlineMessage: string,
): Promise<S | Failure> {
  let result: S | Failure;
  try {
    result = await action(prev, form);
  } catch {
    return { ok: false, error: offlineMessage, code: "UNAVAILABLE" };
  }
  if (result && !result.ok && (result as Failure).code === "UNAUTHENTICATED") announceSignedOut();
  return result;
}

/** Sent on `window` when an action finds the session gone (signed out elsewhere, code rotated): the staff header says so. */
export const SIGNED_OUT_EVENT = "nextup:signed-out";

export function announceSignedOut(): void {
  if (typeof window !== "undefined") window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
}
