"use client";

import { useState } from "react";

/**
 * An action's error until the manager changes something: the message goes once its cause
 * may be gone (a field edited), instead of standing beside a corrected form.
 */
export function useFreshError(state: { ok: true } | { ok: false; error: string } | null): [message: string | null, clear: () => void] {
  const [cleared, setCleared] = useState<unknown>(null);
  const message = state && !state.ok && cleared !== state ? state.error : null;
  return [message, () => setCleared(state)];
}
