/**
 * Where a browser's push subscription may point (decision 0053): https on the push services
 * browsers use, or an origin the operator names in PUSH_SERVICES. A subscription is a URL a
 * stranger chooses, so it is checked when stored and again before every send.
 */

/** `https://host` matches that origin exactly; `https://*.suffix` matches any host under suffix (not suffix itself). */
export const BUILT_IN_PUSH_SERVICES: readonly string[] = [
  "https://fcm.googleapis.com",
  "https://android.googleapis.com",
  "https://updates.push.services.mozilla.com",
  "https://web.push.apple.com",
  "https://*.push.apple.com",
  "https://*.notify.windows.com",
];

/** The longest endpoint taken (FCM's are about 200 characters). */
export const MAX_ENDPOINT_LENGTH = 1024;

function matches(pattern: string, url: URL): boolean {
  const star = /^https:\/\/\*\.([a-z0-9.-]+)$/.exec(pattern);
  if (star) return url.protocol === "https:" && url.port === "" && url.hostname.endsWith(`.${star[1]}`);
  return url.origin === pattern;
}

/** Why `endpoint` may not receive pushes, or null when it may. `extra`: PUSH_SERVICES origins (exact). */
export function endpointProblem(endpoint: string, extra: readonly string[] = []): string | null {
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return `endpoint is longer than ${MAX_ENDPOINT_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "endpoint is not a URL";
  }
  if (url.username || url.password) return "endpoint may not carry a user name or password";
  if (extra.includes(url.origin)) return null;
  if (url.protocol !== "https:") return "endpoint must be https";
  if (BUILT_IN_PUSH_SERVICES.some((p) => matches(p, url))) return null;
  return `endpoint's origin ${url.origin} is not a known push service (Google, Mozilla, Apple, Microsoft) nor in PUSH_SERVICES`;
}

/** PUSH_SERVICES (`http://127.0.0.1:4567,https://push.example.com`): the origins, or the problem with an entry. */
export function parsePushServices(value: string | undefined): { origins: string[] } | { error: string } {
  const origins: string[] = [];
  for (const entry of (value ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    let url: URL | null = null;
    try {
      url = new URL(entry);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.pathname !== "/" || url.search || url.hash || url.username) {
      return { error: `"${entry}" is not an origin such as "https://push.example.com" (no path)` };
    }
    origins.push(url.origin);
  }
  return { origins };
}

/** PUSH_CONTACT: a `mailto:` address or an https URL, never a local host (Apple refuses those); the problem, or null. */
export function contactProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a mailto: or https: URL`;
  }
  const host = url.protocol === "mailto:" ? (url.pathname.split("@")[1] ?? "") : url.protocol === "https:" ? url.hostname : null;
  if (host === null) return `"${value}" is not a mailto: or https: URL`;
  if (!host || !host.includes(".")) return `"${value}" names no domain`;
  const h = host.toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost") || h.endsWith(".local") || /^[0-9.]+$/.test(h) || h.startsWith("["))
    return `"${value}" names a local host or an address; push services (Apple's) refuse it`;
  return null;
}
