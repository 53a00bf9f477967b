"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "@/app/_lib/client-action";
import { readPrinting, reprintTicket, type KioskPrinting } from "./actions";

/** While a ticket of this device waits (or a printer shows trouble), read again this often: a lost event must not leave a stale banner. */
export const PRINTING_POLL_MS = 15_000;

export type KioskPrinter = KioskPrinting["printers"][number];
export type KioskJob = KioskPrinting["jobs"][number];

/** What the printing banner says: a printer this device prints on that cannot print, or a ticket given up. */
export type PrintTrouble =
  | {
      kind: "offline" | "paperOut" | "coverOpen";
      printer: KioskPrinter;
      /** The newest waiting ticket of this device on it. */ number: string | null;
      waiting: number;
    }
  | { kind: "gaveUp"; job: KioskJob };

const TROUBLE = new Set(["offline", "paperOut", "coverOpen"]);
const waits = (j: KioskJob) => j.state === "queued" || j.state === "printing";

/** The latest job of each order (jobs come newest first). */
function latestByOrder(jobs: readonly KioskJob[]): Map<string, KioskJob> {
  const latest = new Map<string, KioskJob>();
  for (const j of jobs) if (j.orderId && !latest.has(j.orderId)) latest.set(j.orderId, j);
  return latest;
}

/**
 * The network printing of this kiosk device: the restaurant's printers (for the picker) and
 * the jobs of the tickets it sent to one (`tracked`, newest first). Read on mount, when a
 * tracked ticket is added, on printer:changed and after a reconnect (`refresh`, called by
 * the kiosk's socket), and every 15 s while a ticket waits or trouble shows. Reads never
 * overlap; a call during a read asks for one more.
 */
export function useKioskPrinting(
  slug: string,
  {
    chosenId,
    lastPrinterId,
    tracked,
    track,
  }: {
    /** The printer this device chose (null: the print dialog). */
    chosenId: string | null;
    /** Where this device's last ticket went (the restaurant may route the kiosk's tickets to a printer). */
    lastPrinterId: string | null;
    tracked: readonly string[];
    track: (orderId: string, follow?: boolean) => void;
  },
) {
  const t = useTranslations("kiosk");
  const [data, setData] = useState<KioskPrinting | null>(null);
  const reading = useRef(false);
  const again = useRef(false);
  const ids = useRef(tracked);
  useEffect(() => {
    ids.current = tracked;
  });

  const refresh = useCallback(async () => {
    if (reading.current) {
      again.current = true;
      return;
    }
    reading.current = true;
    try {
      do {
        again.current = false;
        const form = new FormData();
        form.set("tenant", slug);
        for (const id of ids.current) form.append("orderId", id);
        const r = await readPrinting(null, form).catch(() => null);
        if (r?.ok) setData(r.data);
      } while (again.current);
    } finally {
      reading.current = false;
    }
  }, [slug]);

  // On mount, and whenever a ticket is added to (or dismissed from) the ones followed.
  const trackedKey = tracked.join(",");
  useEffect(() => {
    void refresh();
  }, [refresh, trackedKey]);

  const latest = useMemo(() => latestByOrder(data?.jobs ?? []), [data]);

  const troubles = useMemo((): PrintTrouble[] => {
    if (!data) return [];
    const live = tracked.flatMap((id) => latest.get(id) ?? []);
    const mine = new Set([chosenId, lastPrinterId, ...live.filter(waits).map((j) => j.printerId)]);
    const out: PrintTrouble[] = [];
    for (const printer of data.printers) {
      if (!mine.has(printer.id) || !TROUBLE.has(printer.status)) continue;
      const waiting = live.filter((j) => j.printerId === printer.id && waits(j));
      out.push({
        kind: printer.status as "offline" | "paperOut" | "coverOpen",
        printer,
        number: waiting[0]?.display ?? null,
        waiting: Math.max(printer.queued, waiting.length),
      });
    }
    for (const job of live) if (job.state === "gaveUp") out.push({ kind: "gaveUp", job });
    return out;
  }, [data, latest, tracked, chosenId, lastPrinterId]);

  const pending = tracked.some((id) => {
    const j = latest.get(id);
    return j !== undefined && waits(j);
  });
  const poll = pending || troubles.length > 0;
  useEffect(() => {
    if (!poll) return;
    const timer = setInterval(() => void refresh(), PRINTING_POLL_MS);
    return () => clearInterval(timer);
  }, [poll, refresh]);

  const printerName = useCallback((id: string | null | undefined) => (id ? (data?.printers.find((p) => p.id === id)?.name ?? null) : null), [data]);

  /** The server prints `orderId`'s ticket again (on `printerId`, else the order's printer); the printer's name, or the error. */
  const reprint = useCallback(
    async (orderId: string, printerId: string | null): Promise<{ ok: true; printerId: string } | { ok: false; error: string }> => {
      const form = new FormData();
      form.set("tenant", slug);
      form.set("orderId", orderId);
      if (printerId) form.set("printer", printerId);
      const unreachable = t("printing.unreachable");
      const r = await callAction(reprintTicket, null, form, unreachable);
      if (!r) return { ok: false, error: unreachable };
      if (!r.ok) return { ok: false, error: r.error };
      track(orderId);
      void refresh();
      return { ok: true, printerId: r.data.printerId };
    },
    [slug, t, track, refresh],
  );

  const dismiss = useCallback((orderId: string) => track(orderId, false), [track]);

  return { printers: data?.printers ?? null, jobOf: (orderId: string) => latest.get(orderId) ?? null, troubles, refresh, printerName, reprint, dismiss };
}

export type KioskPrintingState = ReturnType<typeof useKioskPrinting>;
