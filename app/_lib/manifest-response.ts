/** What every web app manifest of the screens and the customer's page shares: the icons and how it is served. */

export const MANIFEST_ICONS = [
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
];

/**
 * Its names follow the page's language (the ?lang cookie, the browser's): never stored by a
 * shared cache, revalidated by the browser, and varied on what chose the language.
 */
export function manifestResponse(manifest: Record<string, unknown>): Response {
  return new Response(JSON.stringify(manifest), {
    headers: { "content-type": "application/manifest+json; charset=utf-8", "cache-control": "private, no-cache", vary: "Accept-Language, Cookie" },
  });
}
