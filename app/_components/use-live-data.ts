"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useBoardSocket, type ConnectionState } from "./use-board-socket";
import { useSettingsRefresh } from "./use-settings-refresh";

export interface LiveData<T> {
  data: T;
  state: ConnectionState;
  /** When the screen last had the server's state (ms since epoch); null before the first sync. */
  lastUpdated: number | null;
}

/** After a failed read while connected, try again this much later. */
const RETRY_MS = 5_000;
/** A read that has not answered by then counts as failed: a server action whose request was cut never settles. */
const READ_TIMEOUT_MS = 8_000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | null> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(null), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      () => (clearTimeout(t), resolve(null)),
    );
  });
}

/**
 * A live screen's state: the server-rendered `initial`, then re-read with `read` (a server
 * action) on every (re)connect and board event — a burst of events becomes one read. A
 * failed read keeps what the screen shows. Never `router.refresh()`: when a refresh cannot
 * reach the server, Next.js falls back to a full page load, which leaves a dead error page
 * (and, while a development server restarts, a reload loop).
 */
export function useLiveData<T>(slug: string, initial: T, read: () => Promise<T | null>, delayMs = 200): LiveData<T> {
  const [data, setData] = useState(initial);
  const [seen, setSeen] = useState(initial);
  const [lastUpdated, setLastUpdated] = useState<number | null>(null);
  // A server action that re-rendered the page brings a fresh `initial`: adopt it.
  if (initial !== seen) {
    setSeen(initial);
    setData(initial);
  }
  const latestRead = useRef(read);
  useEffect(() => {
    latestRead.current = read;
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // An event during a read may not be in its answer: read once more afterwards.
  const dirty = useRef(false);
  const mounted = useRef(true);

  const reload = useCallback(() => {
    if (timer.current) {
      dirty.current = true;
      return;
    }
    dirty.current = false;
    // withTimeout never rejects: a failed read is null and retried below.
    const readOnce = async () => {
      const fresh = await withTimeout(latestRead.current(), READ_TIMEOUT_MS);
      timer.current = undefined;
      if (!mounted.current) return;
      if (fresh === null) {
        timer.current = setTimeout(() => {
          timer.current = undefined;
          reload();
        }, RETRY_MS);
        return;
      }
      setData(fresh);
      setLastUpdated(Date.now());
      if (dirty.current) reload();
    };
    timer.current = setTimeout(() => void readOnce(), delayMs);
  }, [delayMs]);

  useEffect(() => {
    mounted.current = true;
    setLastUpdated(Date.now());
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
    };
  }, []);

  const settingsChanged = useSettingsRefresh(reload);
  const state = useBoardSocket(slug, {
    onConnect: reload,
    onOrderCreated: reload,
    onOrderUpdated: reload,
    onOrderCalled: reload,
    onShiftStarted: reload,
    onSettingsChanged: settingsChanged,
  });
  return { data, state, lastUpdated };
}

/** The form a server action reads its restaurant (and any other fields) from. */
export function tenantForm(slug: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.set("tenant", slug);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
}
