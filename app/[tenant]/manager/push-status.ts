import type { App } from "@/lib/server/app.server";

/** What the server says of Web Push (its `app.push.status()`). */
export interface PushStatus {
  enabled: boolean;
  contact: string | null;
  reason?: string;
  /** Pushes sent and failed lately, where the server counts them. */
  recentSent?: number;
  recentFailed?: number;
}

/** The server's push status; off where this build has no push service wired in. */
export function pushStatusOf(app: App): PushStatus {
  const push = (app as App & { push?: { status(): PushStatus } }).push;
  return push?.status() ?? { enabled: false, contact: null };
}

/**
 * The console's line: on, off, or on but failing — failures and not one success lately,
 * most likely a server with no way out to the internet (a LAN-only shop).
 */
export function pushLine(status: PushStatus): "on" | "off" | "failing" {
  if (!status.enabled) return "off";
  return (status.recentFailed ?? 0) > 0 && (status.recentSent ?? 0) === 0 ? "failing" : "on";
}
