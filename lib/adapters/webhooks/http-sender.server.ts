/**
 * One webhook attempt over HTTP(S): signed per Standard Webhooks (the `standardwebhooks`
 * package), sent to the address that passed the SSRF check — the name is resolved once,
 * every address is checked by the rules of creation, and the socket connects to a checked
 * address (no second lookup a DNS rebinding could answer differently). No redirects are
 * followed; the attempt has a hard timeout. Short of an HTTP answer, a private destination's
 * deliveries say only that none came (refused, reset, timeout and TLS errors would map the
 * ports of the restaurant's network and of the server itself); the server's log has the detail.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { Webhook } from "standardwebhooks";
import { addressRefusal, ipLiteral, isPublicAddress, type DestinationPolicy } from "@/lib/core/webhooks/destination";
import type { AttemptResult } from "@/lib/core/webhooks/retry";
import type { HostResolver, WebhookSender } from "@/lib/core/ports";

/** Every address of `host` (A and AAAA), as the operating system resolves it. */
export const resolveHost: HostResolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

const USER_AGENT = "Nextup-Webhooks/1";

/** What a private destination's deliveries say when no HTTP answer came, whatever the reason. */
export const NO_HTTP_ANSWER = "no HTTP answer (for a private address the reason is in the server's log only)";

/** The signature headers of one attempt (Standard Webhooks). */
export function signatureHeaders(m: { id: string; body: string; secret: string }, at: Date): Record<string, string> {
  return {
    "webhook-id": m.id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(m.secret).sign(m.id, at, m.body),
  };
}

export function createHttpSender(opts: { policy: DestinationPolicy; timeoutMs: number; resolve?: HostResolver; now?: () => Date }): WebhookSender {
  const resolve = opts.resolve ?? resolveHost;
  return async (m) => {
    const url = new URL(m.url);
    const literal = ipLiteral(url);
    let addresses: string[];
    try {
      addresses = literal ? [literal] : await resolve(url.hostname);
    } catch {
      return { status: null, error: `the host ${url.hostname} does not resolve` };
    }
    if (addresses.length === 0) return { status: null, error: `the host ${url.hostname} does not resolve` };
    for (const a of addresses) {
      const refusal = addressRefusal(a, opts.policy);
      if (refusal) return { status: null, error: `destination refused: ${literal ? "" : `${url.hostname} resolves to ${a}: `}${refusal}` };
    }
    const address = addresses[0]!;
    const r = await post(url, address, m, signatureHeaders(m, (opts.now ?? (() => new Date()))()), opts.timeoutMs);
    if (r.status !== null || isPublicAddress(address)) return r;
    return { status: null, error: NO_HTTP_ANSWER, detail: r.error ?? undefined };
  };
}

/** POSTs to `url` connecting to `address` (TLS still checks the certificate against the URL's host name). */
function post(url: URL, address: string, m: { body: string }, signature: Record<string, string>, timeoutMs: number): Promise<AttemptResult> {
  const family = address.includes(":") ? 6 : 4;
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = client.request(
      url,
      {
        method: "POST",
        lookup: pinned,
        agent: false,
        headers: { "content-type": "application/json", "user-agent": USER_AGENT, "content-length": Buffer.byteLength(m.body), ...signature },
      },
      (res) => {
        res.resume(); // the body is not needed; drain it so the socket closes
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        done({ status, error: ok ? null : `HTTP ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}` });
        res.on("error", () => {});
      },
    );
    const timer = setTimeout(() => {
      done({ status: null, error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on("error", (e: NodeJS.ErrnoException) => done({ status: null, error: networkError(e) }));
    req.end(m.body);
  });
}

function networkError(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    default:
      return (e.code ? `${e.code}: ` : "") + e.message.slice(0, 200);
  }
}
