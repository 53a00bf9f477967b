/**
 * For client components: calls a staff server action and turns a failed request (Wi-Fi
 * gone, server restarting) into the same readable `{ ok: false }` the action returns for
 * its own errors, instead of crashing the screen into the error boundary. An action the
 * server does not know (the page is from an older build: an update) is NEW_BUILD.
 */
import { unstable_isUnrecognizedActionError } from "next/navigation";

type Failure = { ok: false; error: string; code: string };

/** The code of a call the server refused as an action of another build (decision 0048): reload, then send again. */
export const NEW_BUILD = "NEW_BUILD";

export async function callAction<S extends { ok: boolean } | null>(
  action: (prev: S, form: FormData) => Promise<S>,
  prev: S,
  form: FormData,
  /** In the screen's language, e.g. common.errors.connectionLost. */
  offlineMessage: string,
  /** In the screen's language: common.errors.newBuild. */
  newBuildMessage: string = offlineMessage,
): Promise<S | Failure> {
  let result: S | Failure;
  try {
    result = await action(prev, form);
  } catch (e) {
    if (unstable_isUnrecognizedActionError(e)) return { ok: false, error: newBuildMessage, code: NEW_BUILD };
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
