"use client";

/**
 * The board's state: a BoardView kept by the rules of lib/core/board.ts. Live events move
 * numbers; the whole board is re-read on every (re)connect, on a new shift, on a settings
 * change and every minute; ready numbers leave by themselves after readyClearMinutes. `onCall` gets each
 * number that just became ready (never those already ready at first render) and each
 * "Call again" from the kitchen.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { applyToBoard, expireReady, newlyReady, type BoardView } from "@/lib/core/board";
import { withDisplay } from "@/lib/core/display-number";
import type { BoardOrder } from "@/lib/core/orders";
import { useBoardSocket, type ConnectionState } from "@/app/_components/use-board-socket";
import { useSettingsRefresh } from "@/app/_components/use-settings-refresh";

const RESYNC_RETRY_MS = 5_000;
/** A safety net for a TV left on for days: e.g. the business day rolls over with no event. */
const RESYNC_EVERY_MS = 60_000;

export interface LiveBoard {
  board: BoardView;
  connection: ConnectionState;
  /** When the board last had the server's state (a sync or an event); null before the first. */
  lastUpdated: number | null;
}

/** A ready spell of an order: called once, even if a resync or a late event brings it again. */
const spell = (o: BoardOrder) => `${o.key}@${o.readyAt ?? ""}`;

/** The board is behind this event's day or shift: re-read it rather than guess. */
const isAhead = (o: BoardOrder, b: BoardView) => o.businessDay > b.businessDay || (o.businessDay === b.businessDay && o.shift > b.shift);

export function useLiveBoard(slug: string, initial: BoardView, onCall: (order: BoardOrder) => void): LiveBoard {
  const [board, setBoard] = useState<BoardView>(initial);
  const [failed, setFailed] = useState(false);
  const [lastUpdated, setLastUpdated] = useState<number | null>(null);
  const boardRef = useRef(board);
  const called = useRef(new Set(initial.ready.map(spell)));
  const latestOnCall = useRef(onCall);
  useEffect(() => {
    latestOnCall.current = onCall;
  });
  const inflight = useRef(false);
  const dirty = useRef(false);
  const retry = useRef<ReturnType<typeof setTimeout> | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    // The server rendered this board just now.
    setLastUpdated(Date.now());
    return () => {
      mounted.current = false;
      if (retry.current) clearTimeout(retry.current);
    };
  }, []);

  /** Replaces the board (dropping ready numbers past their time) and calls what just became ready. */
  const commit = useCallback((next: BoardView) => {
    const fresh = expireReady(next, Date.now());
    const prev = boardRef.current;
    boardRef.current = fresh;
    setBoard(fresh);
    for (const o of newlyReady(prev, fresh)) {
      if (called.current.has(spell(o))) continue;
      called.current.add(spell(o));
      latestOnCall.current(o);
    }
  }, []);

  /**
   * Reads the whole board. Events that arrive while a read is under way mark it dirty and
   * trigger one more read, so the last snapshot always includes them.
   */
  const resync = useCallback(async () => {
    if (inflight.current) {
      dirty.current = true;
      return;
    }
    inflight.current = true;
    try {
      do {
        dirty.current = false;
        const res = await fetch(`/api/v1/orgs/${encodeURIComponent(slug)}/board`, { cache: "no-store", headers: { accept: "application/json" } });
        if (!res.ok) throw new Error(`Board request failed with ${res.status}`);
        const data = (await res.json()) as BoardView;
        if (!mounted.current) return;
        commit({ ...data, preparing: data.preparing.map(withDisplay), ready: data.ready.map(withDisplay) });
      } while (dirty.current);
      setFailed(false);
      setLastUpdated(Date.now());
    } catch {
      if (!mounted.current) return;
      setFailed(true);
      retry.current ??= setTimeout(() => {
        retry.current = null;
        void resync();
      }, RESYNC_RETRY_MS);
    } finally {
      inflight.current = false;
    }
  }, [slug, commit]);

  const onOrder = useCallback(
    (order: BoardOrder) => {
      if (inflight.current) dirty.current = true;
      setLastUpdated(Date.now());
      if (isAhead(order, boardRef.current)) void resync();
      commit(applyToBoard(boardRef.current, order, Date.now()));
    },
    [commit, resync],
  );

  // "Call again" stamps the order ready anew: it is back on the board, and said exactly once.
  const onCalled = useCallback(
    (order: BoardOrder) => {
      setLastUpdated(Date.now());
      called.current.add(spell(order));
      commit(applyToBoard(boardRef.current, order, Date.now()));
      latestOnCall.current(order);
    },
    [commit],
  );

  const settingsChanged = useSettingsRefresh(() => void resync());
  const connection = useBoardSocket(slug, {
    onConnect: () => void resync(),
    onOrderCreated: onOrder,
    onOrderUpdated: onOrder,
    onOrderCalled: onCalled,
    onShiftStarted: () => void resync(),
    onSettingsChanged: settingsChanged,
  });

  useEffect(() => {
    const t = setInterval(() => void resync(), RESYNC_EVERY_MS);
    return () => clearInterval(t);
  }, [resync]);

  // Ready numbers leave the board by themselves: wake up when the next one is due.
  useEffect(() => {
    const due = board.ready.map((o) => (o.readyAt ? Date.parse(o.readyAt) + board.readyClearMinutes * 60_000 : Infinity));
    const next = Math.min(...due);
    if (!Number.isFinite(next)) return;
    const t = setTimeout(() => commit(boardRef.current), Math.max(250, next - Date.now() + 50));
    return () => clearTimeout(t);
  }, [board, commit]);

  return { board, connection: failed && connection === "live" ? "reconnecting" : connection, lastUpdated };
}
