"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useBoardSocket, type ConnectionState } from "@/app/_components/use-board-socket";
import { tenantForm } from "@/app/_components/use-live-data";
import { readKiosk } from "./actions";
import type { KioskView } from "./kiosk-view.server";

/** After a failed read, try again this much later. */
const RETRY_MS = 5_000;

/**
 * The kiosk's menu and settings, live: re-read on menu:changed and settings:changed (a dish
 * sold out, a new price, number-only switched on) and after a reconnect (events missed while
 * offline). Reads never overlap; an event during a read asks for one more. Never
 * router.refresh(): offline it would turn into a full page load. The same socket passes
 * printer:changed and every (re)connect on (`also`): the kiosk opens one socket only.
 */
export function useKioskView(
  slug: string,
  initial: KioskView,
  /** More to re-read on the same socket: a printer changed, or the socket (re)connected. */
  also: { onPrinterChanged?: () => void; onConnect?: () => void } = {},
) {
  const [view, setView] = useState(initial);
  const [lastUpdated, setLastUpdated] = useState<number | null>(null);
  const reading = useRef(false);
  const again = useRef(false);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const connectedOnce = useRef(false);

  const reread = useCallback(async () => {
    if (reading.current) {
      again.current = true;
      return;
    }
    reading.current = true;
    clearTimeout(retry.current);
    try {
      do {
        again.current = false;
        const r = await readKiosk(null, tenantForm(slug)).catch(() => null);
        if (r?.ok) {
          setView(r.data);
          setLastUpdated(Date.now());
        } else retry.current = setTimeout(() => void reread(), RETRY_MS);
      } while (again.current);
    } finally {
      reading.current = false;
    }
  }, [slug]);

  useEffect(() => () => clearTimeout(retry.current), []);

  const connection: ConnectionState = useBoardSocket(slug, {
    onConnect: () => {
      setLastUpdated(Date.now());
      // The page brought the view; only a reconnect may have missed a change.
      if (connectedOnce.current) void reread();
      connectedOnce.current = true;
      also.onConnect?.();
    },
    onMenuChanged: () => void reread(),
    onSettingsChanged: () => void reread(),
    onPrinterChanged: () => also.onPrinterChanged?.(),
  });

  return { view, connection, lastUpdated, setLastUpdated, reread };
}
