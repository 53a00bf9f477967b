/**
 * public/sw.js's tap on a notification, run in a VM with a stand-in worker global: Chromium's
 * DevTools protocol can deliver a push (tests/e2e/customer-push.spec.ts) but cannot tap a
 * notification, so the click handler is checked here against the clients it is given.
 */
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

const SOURCE = readFileSync(new URL("../../public/sw.js", import.meta.url), "utf8");
const ORIGIN = "https://shop.example";

type Listener = (event: unknown) => void;
interface Tab {
  url: string;
  focused: boolean;
  focus(): Promise<Tab>;
}

/** Loads sw.js with the given open tabs; returns its listeners and what it did. */
function worker(tabs: string[]) {
  const listeners = new Map<string, Listener>();
  const opened: string[] = [];
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const open: Tab[] = tabs.map((url): Tab => ({
    url,
    focused: false,
    focus() {
      this.focused = true;
      return Promise.resolve(this);
    },
  }));
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, fn: Listener) => listeners.set(type, fn),
    skipWaiting: () => Promise.resolve(),
    clients: {
      claim: () => Promise.resolve(),
      matchAll: () => Promise.resolve(open),
      openWindow: (url: string) => {
        opened.push(url);
        return Promise.resolve(null);
      },
    },
    registration: {
      showNotification: (title: string, options: Record<string, unknown>) => {
        shown.push({ title, options });
        return Promise.resolve();
      },
    },
  };
  runInNewContext(SOURCE, { self, URL });
  return { listeners, opened, shown, open };
}

/** Dispatches an event to the worker and waits for what it passed to waitUntil. */
async function dispatch(listeners: Map<string, Listener>, type: string, init: Record<string, unknown>) {
  let work: Promise<unknown> = Promise.resolve();
  listeners.get(type)!({ ...init, waitUntil: (p: Promise<unknown>) => (work = p) });
  await work;
}

function tap(url: string | undefined) {
  let closed = false;
  return { notification: { data: url === undefined ? undefined : { url }, close: () => (closed = true) }, closed: () => closed };
}

describe("public/sw.js notificationclick", () => {
  it("focuses a tab already on the order's page (whatever its ?lang=) rather than opening another", async () => {
    const w = worker([`${ORIGIN}/golden/board`, `${ORIGIN}/golden/o/abc?lang=zh-CN`]);
    const t = tap("/golden/o/abc");
    await dispatch(w.listeners, "notificationclick", t);
    expect(t.closed()).toBe(true);
    expect(w.open.map((c) => c.focused)).toEqual([false, true]);
    expect(w.opened).toEqual([]);
  });

  it("opens the order's page on this origin when no tab shows it", async () => {
    const w = worker([`${ORIGIN}/golden/o/other`]);
    await dispatch(w.listeners, "notificationclick", tap("/golden/o/abc"));
    expect(w.opened).toEqual([`${ORIGIN}/golden/o/abc`]);
    expect(w.open[0]!.focused).toBe(false);
  });

  it("opens the start page for a notification without a link", async () => {
    const w = worker([]);
    await dispatch(w.listeners, "notificationclick", tap(undefined));
    expect(w.opened).toEqual([`${ORIGIN}/`]);
  });
});

describe("public/sw.js push", () => {
  const data = (text: string) => ({ json: () => JSON.parse(text) as unknown });

  it("shows the payload's title, body, tag and link, buzzing again for a second call", async () => {
    const w = worker([]);
    const payload = { title: "Golden Wok: K12", body: "Ready! Please collect it.", url: "/golden/o/abc", tag: "order-abc", number: "K12" };
    await dispatch(w.listeners, "push", { data: data(JSON.stringify(payload)) });
    expect(w.shown).toHaveLength(1);
    expect(w.shown[0]!.title).toBe("Golden Wok: K12");
    expect(w.shown[0]!.options).toMatchObject({ body: payload.body, tag: "order-abc", renotify: true, data: { url: "/golden/o/abc" } });
  });

  it("shows the generic notification for no data, garbage or a payload without a title, and never links off the site", async () => {
    const w = worker([]);
    await dispatch(w.listeners, "push", { data: null });
    await dispatch(w.listeners, "push", { data: data("{not json") });
    await dispatch(w.listeners, "push", { data: data(JSON.stringify({ body: "no title" })) });
    await dispatch(w.listeners, "push", { data: data(JSON.stringify({ title: "T", url: "//evil.example/x" })) });
    expect(w.shown.map((s) => s.title)).toEqual(["Nextup", "Nextup", "Nextup", "T"]);
    expect(w.shown.slice(0, 3).every((s) => s.options.body === "Your order has an update")).toBe(true);
    expect(w.shown[3]!.options.data).toEqual({ url: "/" });
  });
});
