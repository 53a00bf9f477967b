/*
 * Nextup's service worker (scope /): shows the customer's "your order is ready" push as a
 * notification, and a tap on it focuses or opens the order's page. Plain JS, no build step.
 *
 * Every push shows a notification, even one whose data is missing or unreadable: iOS takes
 * the permission away from a site whose pushes show nothing. The payload, as the server
 * sends it: { "title", "body", "url": "/{slug}/o/{orderId}", "tag": "order-<id>", "number" }.
 * It never caches or intercepts requests (no fetch handler): the pages stay live.
 */
const FALLBACK = { title: "Nextup", body: "Your order has an update" };

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** The payload's fields when they have the right types, else null. */
function readPayload(data) {
  if (!data) return null;
  let p;
  try {
    p = data.json();
  } catch {
    return null;
  }
  if (!p || typeof p !== "object" || typeof p.title !== "string" || !p.title) return null;
  return p;
}

/** Only a path on this origin is opened: a payload never sends the customer elsewhere. */
function samePath(url) {
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : "/";
}

self.addEventListener("push", (event) => {
  const p = readPayload(event.data);
  const title = p ? p.title : FALLBACK.title;
  const options = {
    body: p && typeof p.body === "string" ? p.body : FALLBACK.body,
    tag: p && typeof p.tag === "string" ? p.tag : "nextup-update",
    // A second call for the same order buzzes again rather than replacing the first in silence.
    renotify: true,
    requireInteraction: true,
    icon: "/icons/icon-192.png",
    badge: "/icons/icon-192.png",
    data: { url: samePath(p && p.url) },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      // A tab already on the order's page (whatever its ?lang=): bring it forward.
      const tab = open.find((c) => c.url.split("?")[0] === url.split("?")[0]);
      if (tab) return tab.focus();
      return self.clients.openWindow(url);
    })(),
  );
});
