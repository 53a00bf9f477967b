"use client";

import { useCallback, useEffect, useState } from "react";
import type { IssuedTicket } from "./actions";

/** Receipt paper widths (mm) a kiosk printer may take. */
export const PAPERS = [58, 80] as const;
export type Paper = (typeof PAPERS)[number];

const PAPER_KEY = "nextup.kiosk.paper";
const lastTicketKey = (slug: string) => `nextup.kiosk.lastTicket.${slug}`;
/** The series this device numbers its orders in, by name (what an order names); per restaurant, as series are. */
const seriesKey = (slug: string) => `nextup.kiosk.series.${slug}`;

function read<T>(key: string, parse: (raw: string) => T | null): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw == null ? null : parse(raw);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or a full storage: remembered until the page reloads only.
  }
}

function asTicket(raw: string): IssuedTicket | null {
  const t = JSON.parse(raw) as Partial<IssuedTicket> | null;
  return t && typeof t.number === "number" && typeof t.url === "string" && typeof t.qr === "string" && Array.isArray(t.items) ? (t as IssuedTicket) : null;
}

/**
 * What this kiosk device remembers across reloads: its printer's paper width, the last
 * ticket it issued (for "Reprint last ticket") and the number series it chose (null: its
 * channel's).
 */
export function useKioskDevice(slug: string) {
  const [paper, setPaperState] = useState<Paper>(80);
  const [lastTicket, setLastTicket] = useState<IssuedTicket | null>(null);
  const [series, setSeriesState] = useState<string | null>(null);

  useEffect(() => {
    const saved = read(PAPER_KEY, (raw) => PAPERS.find((p) => String(p) === raw) ?? null);
    if (saved) setPaperState(saved);
    setLastTicket(read(lastTicketKey(slug), asTicket));
    setSeriesState(read(seriesKey(slug), (raw) => raw || null));
  }, [slug]);

  const setSeries = useCallback(
    (name: string | null) => {
      setSeriesState(name);
      write(seriesKey(slug), name ?? "");
    },
    [slug],
  );

  const setPaper = useCallback((p: Paper) => {
    setPaperState(p);
    write(PAPER_KEY, String(p));
  }, []);

  const rememberTicket = useCallback(
    (t: IssuedTicket) => {
      setLastTicket(t);
      write(lastTicketKey(slug), JSON.stringify(t));
    },
    [slug],
  );

  return { paper, setPaper, lastTicket, rememberTicket, series, setSeries };
}
