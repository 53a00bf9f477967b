"use client";

import { useCallback, useEffect, useState } from "react";

/**
 * Web Push for the customer's page: whether this browser can be told "ready" with the screen
 * locked, and subscribing when the customer asks. The server's key comes from
 * GET /api/v1/push/key (404 while push is off there); the subscription goes to
 * POST /api/v1/orgs/{slug}/orders/{id}/subscriptions in the page's language.
 */
export type PushState =
  /** Still finding out, or this browser or server cannot: nothing is shown. */
  | { kind: "none" }
  /** An iPhone or iPad in Safari: push only works from the Home Screen. */
  | { kind: "ios-home-screen" }
  | { kind: "ready" }
  | { kind: "working" }
  | { kind: "subscribed" }
  | { kind: "blocked" }
  /** The server's refusal (or a generic message key when there is none), the button back. */
  | { kind: "failed"; message: string | null };

const stored = (orderId: string) => `nextup:push:${orderId}`;

/** iOS Safari outside the Home Screen has no PushManager; from the Home Screen it does (16.4+). */
function isIosOutsideHomeScreen(): boolean {
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true || matchMedia("(display-mode: standalone)").matches;
  return ios && !standalone && !("PushManager" in window);
}

const canPush = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** base64url (the server's key) to the bytes pushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const x = new Uint8Array(a);
  return x.every((v, i) => v === b[i]);
}

/** The server's public key, or null when push is off there (404) or it cannot be reached. */
async function serverKey(): Promise<string | null> {
  try {
    const res = await fetch("/api/v1/push/key", { headers: { accept: "application/json" } });
    if (!res.ok) return null;
    const body = (await res.json()) as { publicKey?: unknown };
    return typeof body.publicKey === "string" && body.publicKey ? body.publicKey : null;
  } catch {
    return null;
  }
}

/** This browser's subscription for the key: the one it has when made with the same key, else a new one. */
async function subscription(key: Uint8Array<ArrayBuffer>): Promise<PushSubscription> {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  const reg = await navigator.serviceWorker.ready;
  const existing = await reg.pushManager.getSubscription();
  if (existing && sameKey(existing.options.applicationServerKey, key)) return existing;
  // Made with an older key (the server's was replaced): subscribe() would refuse while it exists.
  await existing?.unsubscribe();
  return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

/** Posts the subscription; null when the server took it, else its message (or null text for a network failure). */
async function register(slug: string, orderId: string, locale: string, sub: PushSubscription): Promise<{ ok: true } | { ok: false; message: string | null }> {
  const json = sub.toJSON();
  let res: Response;
  try {
    res = await fetch(`/api/v1/orgs/${encodeURIComponent(slug)}/orders/${encodeURIComponent(orderId)}/subscriptions`, {
      method: "POST",
      // The server writes the notification in the language it is asked in: this page's.
      headers: { "content-type": "application/json", accept: "application/json", "accept-language": locale },
      body: JSON.stringify({ endpoint: json.endpoint, keys: { p256dh: json.keys?.p256dh, auth: json.keys?.auth } }),
    });
  } catch {
    return { ok: false, message: null };
  }
  if (res.ok) return { ok: true };
  const body = (await res.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  const message = body?.error?.message;
  return { ok: false, message: typeof message === "string" && message ? message : null };
}

export function usePushSubscription(slug: string, orderId: string, locale: string): { state: PushState; subscribe: () => void } {
  const [state, setState] = useState<PushState>({ kind: "none" });
  const [key, setKey] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void (async () => {
      const k = await serverKey();
      if (!live || !k) return;
      if (isIosOutsideHomeScreen()) return setState({ kind: "ios-home-screen" });
      if (!canPush()) return;
      setKey(k);
      if (Notification.permission === "denied") return setState({ kind: "blocked" });
      // Asked for this order before (a reload): say so, as long as the permission still stands.
      const asked = localStorage.getItem(stored(orderId)) === "1";
      setState({ kind: asked && Notification.permission === "granted" ? "subscribed" : "ready" });
    })();
    return () => {
      live = false;
    };
  }, [orderId]);

  const subscribe = useCallback(() => {
    if (!key) return;
    setState({ kind: "working" });
    void (async () => {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") return setState(permission === "denied" ? { kind: "blocked" } : { kind: "ready" });
      let sub: PushSubscription;
      try {
        sub = await subscription(keyBytes(key));
      } catch {
        return setState({ kind: "failed", message: null });
      }
      const result = await register(slug, orderId, locale, sub);
      if (!result.ok) return setState({ kind: "failed", message: result.message });
      try {
        localStorage.setItem(stored(orderId), "1");
      } catch {
        // Storage full or off: the confirmation stays until the page is reloaded.
      }
      setState({ kind: "subscribed" });
    })();
  }, [key, slug, orderId, locale]);

  return { state, subscribe };
}
