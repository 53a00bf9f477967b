"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { KioskIntent } from "@/lib/core/kiosk-order";
import { reloadForNewBuild } from "@/app/_lib/new-build";
import type { Service } from "@/lib/core/orders";
import { draftStore, type DraftPick, type DraftRow, type KioskDraft } from "./kiosk-draft";

/** This device's storage, or null where there is none (the server's render, a browser that refuses it). */
function deviceStorage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The kiosk form's draft on the device (decision 0048): read once on load (`restore`), written on
 * every change, and told what becomes of a send: on its way, answered, taken, or refused as an
 * action of another build (then the page reloads and `takeResend` gives the button to press again).
 */
export function useKioskDraft(
  slug: string,
  scope: string,
  form: { key: string; rows: DraftRow[]; picked: DraftPick[]; note: string; service: Service | null },
  restore: (draft: KioskDraft | null) => void,
) {
  const store = useMemo(() => draftStore(deviceStorage(), slug, scope), [slug, scope]);
  // The send under way (which button) until the server answers: kept, as a lost answer may have taken the order.
  const sending = useRef<KioskIntent | null>(null);
  // The page reloaded to a new build to send the order: sent again once, with its key.
  const resend = useRef<KioskIntent | null>(null);
  const [restored, setRestored] = useState(false);
  const latestRestore = useRef(restore);
  useEffect(() => {
    latestRestore.current = restore;
  });

  useEffect(() => {
    const draft = store.read();
    latestRestore.current(draft);
    sending.current = draft?.sending ?? null;
    resend.current = draft?.resend ? draft.sending : null;
    // Once, after mount: the server's render has no storage, so the draft can only be read here.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setRestored(true);
  }, [store]);

  const { key, rows, picked, note, service } = form;
  const persist = useCallback(
    () =>
      store.write({
        key,
        rows: rows.map((r) => ({ name: r.name, qty: r.qty, note: r.note })),
        picked,
        note,
        service,
        sending: sending.current,
        resend: false,
      }),
    [store, key, rows, picked, note, service],
  );
  useEffect(() => {
    if (restored && key) persist();
  }, [restored, key, persist]);

  /** Before a send leaves: a reload while it is on its way keeps its key. */
  const sent = useCallback(
    (intent: KioskIntent) => {
      sending.current = intent;
      persist();
    },
    [persist],
  );

  /** The server answered the send (taken or refused): the draft no longer waits on it. */
  const answered = useCallback(() => {
    sending.current = null;
    const draft = store.read();
    if (draft) store.write({ ...draft, sending: null, resend: false });
  }, [store]);

  /** Taken, or cleared by the cashier: the draft and its key are forgotten. */
  const forget = useCallback(() => {
    sending.current = null;
    store.clear();
  }, [store]);

  /**
   * The send was refused as an action of another build: true when the page reloads to send it
   * again; false (nothing kept on this device, or a reload moments ago) leaves it on screen.
   */
  const reloadToResend = useCallback((): boolean => {
    const draft = store.read();
    if (!draft) return false;
    store.write({ ...draft, resend: true });
    if (reloadForNewBuild()) return true;
    store.write({ ...draft, resend: false });
    return false;
  }, [store]);

  /** The button to press again after a reload to a new build (once), or null. */
  const takeResend = useCallback((): KioskIntent | null => {
    const intent = resend.current;
    resend.current = null;
    return intent;
  }, []);

  return { restored, sent, answered, forget, reloadToResend, takeResend };
}
