import type { PushFeature, PushRecent } from "@/lib/server/wiring/push.server";

type PushStatus = ReturnType<PushFeature["status"]>;

/**
 * The console's line: on, off, or on but failing — failures and not one success in the last
 * hour, most likely a server with no way out to the internet (a LAN-only shop).
 */
export function pushLine(status: Pick<PushStatus, "enabled">, recent: Pick<PushRecent, "sent" | "failed"> | null): "on" | "off" | "failing" {
  if (!status.enabled) return "off";
  return recent && recent.failed > 0 && recent.sent === 0 ? "failing" : "on";
}
