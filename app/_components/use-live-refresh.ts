"use client";

import { useCallback, useEffect, useRef } from "react";
import { useRouter } from "next/navigation";
import { useBoardSocket, type ConnectionState } from "./use-board-socket";

/**
 * For server-rendered staff screens: re-render from the server on any board event (and on
 * every reconnect). A burst of events, such as a rush at the kiosk, becomes one refresh.
 */
export function useLiveRefresh(slug: string, delayMs = 200): ConnectionState {
  const router = useRouter();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const refresh = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      router.refresh();
    }, delayMs);
  }, [router, delayMs]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useBoardSocket(slug, { onConnect: refresh, onOrderCreated: refresh, onOrderUpdated: refresh, onShiftStarted: refresh });
}
