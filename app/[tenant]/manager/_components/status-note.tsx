"use client";

import { useEffect, useState, type ReactNode } from "react";

/** How long a confirmation stays on screen. */
const FADE_MS = 6_000;

/**
 * What a console action did: a confirmation that goes after a few seconds, inside a live
 * region that stays in the page so screen readers announce each new one. `token`: a new
 * value (the action's new result) shows the note again.
 */
export function StatusNote({ children, testId, token }: { children: ReactNode; testId?: string; token?: unknown }) {
  const [shownFor, setShownFor] = useState<unknown>(token);
  const [faded, setFaded] = useState(false);
  if (shownFor !== token) {
    setShownFor(token);
    setFaded(false);
  }
  const visible = !faded && children !== null && children !== undefined && children !== false;
  useEffect(() => {
    if (!visible) return;
    const t = setTimeout(() => setFaded(true), FADE_MS);
    return () => clearTimeout(t);
  }, [visible, shownFor]);
  return (
    <div role="status" aria-live="polite">
      {visible ? (
        <p data-testid={testId} className="rounded-lg border-2 border-emerald-700 bg-emerald-50 px-4 py-3 text-lg font-medium text-emerald-900">
          {children}
        </p>
      ) : null}
    </div>
  );
}
