/**
 * A screen whose page came from an older build than the server's (an update, decision
 * 0048): its server actions are unknown there and its lazy chunks may be gone, so it
 * reloads. At most once per RELOAD_GAP_MS per tab: during a rolling update a screen may
 * meet nodes of both builds, and a reload loop would be worse than a sentence.
 */
import { useEffect } from "react";

const RELOADED_AT = "nextup.reloadedForBuild";
export const RELOAD_GAP_MS = 30_000;

/** The build this page's code came from (next.config.js inlines it); "" in development, where it is not checked. */
export const PAGE_BUILD: string = process.env.NEXTUP_BUILD ?? "";

/** True when the page is reloading; false when it reloaded for a new build moments ago (the caller says so instead). */
export function reloadForNewBuild(): boolean {
  try {
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? "0");
    if (Date.now() - last < RELOAD_GAP_MS) return false;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  } catch {
    // No session storage: reload anyway (a loop then needs a node of each build and no sticky sessions).
  }
  window.location.reload();
  return true;
}

let holds = 0;
let wanted = false;

/** The socket heard another build: reload now, or once no screen part holds the page (a kiosk sending, a ticket shown). */
export function reloadWhenFree(): void {
  if (holds > 0) wanted = true;
  else reloadForNewBuild();
}

/** While `active`, a new build's reload waits (the kiosk's order being sent, its ticket on screen). */
export function useReloadHold(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    holds++;
    return () => {
      holds--;
      if (holds === 0 && wanted) {
        wanted = false;
        reloadForNewBuild();
      }
    };
  }, [active]);
}
