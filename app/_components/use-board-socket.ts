"use client";

/**
 * The one place the browser talks Socket.IO: joins the restaurant's board room and calls
 * the handlers on each event. `onConnect` runs on the first connect and on every
 * reconnect, so callers can resync whatever they may have missed while offline. A server
 * of another build (an update) reloads the page: its actions and chunks are the new build's.
 */
import { useEffect, useRef, useState } from "react";
import { io, type Socket } from "socket.io-client";
import { withDisplay } from "@/lib/core/display-number";
import { PAGE_BUILD, reloadWhenFree } from "@/app/_lib/new-build";
import type { BoardOrder, ClientToServerEvents, ServerToClientEvents, ShiftStartedPayload } from "@/lib/adapters/realtime/events";

export type ConnectionState = "connecting" | "live" | "reconnecting";

export interface BoardSocketHandlers {
  onConnect?: () => void;
  onOrderCreated?: (order: BoardOrder) => void;
  onOrderUpdated?: (order: BoardOrder) => void;
  onOrderCalled?: (order: BoardOrder) => void;
  onShiftStarted?: (shift: ShiftStartedPayload) => void;
  /** The restaurant's settings changed (clear times, kitchen ages, language, name, currency): re-read them. */
  onSettingsChanged?: () => void;
  /** The menu changed (sold out, a new dish, a price): re-read it. */
  onMenuChanged?: () => void;
  /** A printer's state or queue changed: re-read it (kiosk, console). */
  onPrinterChanged?: () => void;
}

/** How long to wait before retrying after the server refused the handshake. */
const HANDSHAKE_RETRY_MS = 5_000;

export function useBoardSocket(slug: string, handlers: BoardSocketHandlers): ConnectionState {
  const [state, setState] = useState<ConnectionState>("connecting");
  // Always call the latest handlers without reconnecting when they change.
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io({
      query: { org: slug },
      transports: ["websocket", "polling"],
    });
    let retry: ReturnType<typeof setTimeout> | undefined;

    socket.on("connect", () => {
      setState("live");
      latest.current.onConnect?.();
    });
    socket.on("disconnect", (reason) => {
      setState("reconnecting");
      // The server closed us on purpose (e.g. a deploy): Socket.IO does not retry by itself then.
      if (reason === "io server disconnect") socket.connect();
    });
    socket.on("connect_error", () => {
      setState("reconnecting");
      // A refused handshake (middleware error) is not retried automatically.
      if (!socket.active) {
        clearTimeout(retry);
        retry = setTimeout(() => socket.connect(), HANDSHAKE_RETRY_MS);
      }
    });
    // A phone or tablet waking up may hold a connection that died while it slept: re-read
    // the state now rather than after the next heartbeat times out.
    const onVisible = () => {
      if (document.visibilityState !== "visible") return;
      if (socket.connected) latest.current.onConnect?.();
      else if (!socket.active) socket.connect();
    };
    document.addEventListener("visibilitychange", onVisible);
    socket.on("order:created", (order) => latest.current.onOrderCreated?.(withDisplay(order)));
    socket.on("order:updated", (order) => latest.current.onOrderUpdated?.(withDisplay(order)));
    socket.on("order:called", (order) => latest.current.onOrderCalled?.(withDisplay(order)));
    socket.on("shift:started", (shift) => latest.current.onShiftStarted?.(shift));
    socket.on("settings:changed", () => latest.current.onSettingsChanged?.());
    socket.on("menu:changed", () => latest.current.onMenuChanged?.());
    socket.on("printer:changed", () => latest.current.onPrinterChanged?.());
    socket.on("server:build", (build) => {
      if (PAGE_BUILD && build !== PAGE_BUILD) reloadWhenFree();
    });

    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      clearTimeout(retry);
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [slug]);

  return state;
}
