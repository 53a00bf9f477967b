"use client";

import { ConnectionBadge } from "./connection-badge";
import { useLiveRefresh } from "./use-live-refresh";

/** Keeps a server-rendered staff page up to date and shows whether it is live. */
export function LiveRefresh({ slug }: { slug: string }) {
  return <ConnectionBadge state={useLiveRefresh(slug)} />;
}
