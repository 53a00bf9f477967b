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
/** The network printer this device prints on ({ id, name }: the name says which one went away); per restaurant. */
const printerKey = (slug: string) => `nextup.kiosk.printer.${slug}`;
/** The orders whose tickets this device sent to a network printer, newest first: the printing banner follows them. */
const printedKey = (slug: string) => `nextup.kiosk.printed.${slug}`;
/** How many of this device's recent printed tickets it keeps an eye on. */
export const TRACKED_ORDERS = 10;

/** A network printer chosen on this device: its id (what an order names) and its name when chosen. */
export interface DevicePrinter {
  id: string;
  name: string;
}

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

function asPrinter(raw: string): DevicePrinter | null {
  const p = JSON.parse(raw) as Partial<DevicePrinter> | null;
  return p && typeof p.id === "string" && p.id && typeof p.name === "string" ? { id: p.id, name: p.name } : null;
}

function asIds(raw: string): string[] | null {
  const ids = JSON.parse(raw) as unknown;
  return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === "string").slice(0, TRACKED_ORDERS) : null;
}

/**
 * What this kiosk device remembers across reloads: its printer's paper width, the last
 * ticket it issued (for "Reprint last ticket"), the number series it chose (null: its
 * channel's), the network printer it chose (null: this screen's print dialog) and the
 * orders whose tickets it sent to a network printer.
 */
export function useKioskDevice(slug: string) {
  const [paper, setPaperState] = useState<Paper>(80);
  const [lastTicket, setLastTicket] = useState<IssuedTicket | null>(null);
  const [series, setSeriesState] = useState<string | null>(null);
  const [printer, setPrinterState] = useState<DevicePrinter | null>(null);
  const [printed, setPrinted] = useState<string[]>([]);

  useEffect(() => {
    const saved = read(PAPER_KEY, (raw) => PAPERS.find((p) => String(p) === raw) ?? null);
    if (saved) setPaperState(saved);
    setLastTicket(read(lastTicketKey(slug), asTicket));
    setSeriesState(read(seriesKey(slug), (raw) => raw || null));
    setPrinterState(read(printerKey(slug), asPrinter));
    setPrinted(read(printedKey(slug), asIds) ?? []);
  }, [slug]);

  const setPrinter = useCallback(
    (p: DevicePrinter | null) => {
      setPrinterState(p);
      write(printerKey(slug), p ? JSON.stringify(p) : "");
    },
    [slug],
  );

  /** Follows `orderId` (its ticket went to a network printer), or forgets it (`follow` false: dismissed). */
  const trackPrinted = useCallback(
    (orderId: string, follow = true) => {
      setPrinted((ids) => {
        const rest = ids.filter((id) => id !== orderId);
        const next = follow ? [orderId, ...rest].slice(0, TRACKED_ORDERS) : rest;
        write(printedKey(slug), JSON.stringify(next));
        return next;
      });
    },
    [slug],
  );

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

  return { paper, setPaper, lastTicket, rememberTicket, series, setSeries, printer, setPrinter, printed, trackPrinted };
}
