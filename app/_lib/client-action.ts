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
  try {
    return await action(prev, form);
  } catch {
    return { ok: false, error: offlineMessage, code: "UNAVAILABLE" };
  }
}
