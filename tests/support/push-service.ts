/**
 * A push service stand-in on 127.0.0.1 (allowed through PUSH_SERVICES): it checks each push
 * as a real one would — the VAPID `Authorization: vapid t=<jwt>, k=<key>` (ES256 signature
 * with k, `aud` its own origin, `exp` in the future and at most 24 h away, `sub` the
 * contact), `TTL` ≤ 1800, `Urgency: high`, a `Topic`, `Content-Encoding: aes128gcm` — and
 * decrypts the body with the subscriber's private key and auth secret (RFC 8291, http_ece).
 * Each subscriber's path can be told what to answer, one status per push, then 201.
 */
import { createECDH, randomBytes, type ECDH } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { decrypt } from "http_ece";
import { importJWK, jwtVerify } from "jose";

export interface ReceivedPush {
  path: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The decrypted payload, parsed; null when it could not be. */
  payload: Record<string, unknown> | null;
  /** What was wrong with the request (empty: a valid push). */
  problems: string[];
  at: number;
}

export interface Subscriber {
  path: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export class PushServiceStandIn {
  readonly received: ReceivedPush[] = [];
  private readonly subscribers = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  private readonly scripts = new Map<string, (number | { status: number; retryAfter?: string })[]>();
  private stalled: Promise<void> | null = null;
  private releaseStall: (() => void) | null = null;

  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
    private readonly contact: string,
  ) {}

  static async start(contact: string): Promise<PushServiceStandIn> {
    let self: PushServiceStandIn | null = null;
    const server = http.createServer((req, res) => void self!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    self = new PushServiceStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, contact);
    return self;
  }

  /** A browser's subscription: fresh P-256 keys and auth secret, an endpoint of its own. */
  subscriber(name = randomBytes(6).toString("hex")): Subscriber {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const path = `/push/${name}`;
    this.subscribers.set(path, { ecdh, auth });
    return { path, endpoint: `${this.origin}${path}`, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } };
  }

  /** The next answers to pushes on `path`, in order; after them, 201. */
  answer(path: string, statuses: (number | { status: number; retryAfter?: string })[]): void {
    this.scripts.set(path, [...statuses]);
  }

  /** Requests are held (unanswered) until release(). */
  stall(): void {
    this.stalled = new Promise((r) => (this.releaseStall = r));
  }
  release(): void {
    this.releaseStall?.();
    this.stalled = null;
  }

  to(path: string): ReceivedPush[] {
    return this.received.filter((r) => r.path === path);
  }

  async until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(
          `push stand-in: ${what} not within ${timeoutMs} ms; received ${JSON.stringify(this.received.map((r) => [r.path, r.status, r.problems]))}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = req.url ?? "/";
    const problems = await this.check(req, path);
    let payload: Record<string, unknown> | null = null;
    const sub = this.subscribers.get(path);
    if (!sub) problems.push(`no subscriber at ${path}`);
    else {
      try {
        payload = JSON.parse(decrypt(body, { version: "aes128gcm", privateKey: sub.ecdh, authSecret: sub.auth }).toString("utf8")) as Record<string, unknown>;
      } catch (e) {
        problems.push(`cannot decrypt: ${String(e)}`);
      }
    }
    const next = this.scripts.get(path)?.shift() ?? 201;
    const { status, retryAfter } = typeof next === "number" ? { status: next, retryAfter: undefined } : next;
    const stalled = this.stalled;
    if (stalled) {
      // Recorded once answered: a stalled push the sender gave up on is not "received".
      await stalled;
      if (res.destroyed || req.socket.destroyed) return;
    }
    this.received.push({ path, status, headers: req.headers, payload, problems, at: Date.now() });
    res.writeHead(status, retryAfter ? { "retry-after": retryAfter } : {});
    res.end();
  }

  private async check(req: http.IncomingMessage, path: string): Promise<string[]> {
    const problems: string[] = [];
    if (req.method !== "POST") problems.push(`method ${req.method}`);
    const ttl = Number(req.headers.ttl);
    if (!/^\d+$/.test(String(req.headers.ttl ?? "")) || ttl > 1800) problems.push(`TTL ${String(req.headers.ttl)}`);
    if (req.headers.urgency !== "high") problems.push(`Urgency ${String(req.headers.urgency)}`);
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(String(req.headers.topic ?? ""))) problems.push(`Topic ${String(req.headers.topic)}`);
    if (req.headers["content-encoding"] !== "aes128gcm") problems.push(`Content-Encoding ${String(req.headers["content-encoding"])}`);
    const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(req.headers.authorization ?? ""));
    if (!m) return [...problems, `Authorization ${req.headers.authorization}`];
    try {
      const point = Buffer.from(m[2]!, "base64url");
      if (point.length !== 65 || point[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
      const key = await importJWK(
        { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") },
        "ES256",
      );
      const { payload, protectedHeader } = await jwtVerify(m[1]!, key, { algorithms: ["ES256"], audience: this.origin });
      const now = Date.now() / 1000;
      if (protectedHeader.typ !== "JWT") problems.push(`JWT typ ${protectedHeader.typ}`);
      if (typeof payload.exp !== "number" || payload.exp <= now || payload.exp > now + 24 * 3600) problems.push(`exp ${payload.exp}`);
      if (payload.sub !== this.contact) problems.push(`sub ${payload.sub}`);
    } catch (e) {
      problems.push(`VAPID: ${String(e)} (${path})`);
    }
    return problems;
  }

  close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Push jobs still to run in pg-boss (created, waiting for a retry, or running): 0 once every push is done. */
export async function pushJobsLeft(prisma: { $queryRaw<T>(query: TemplateStringsArray, ...values: unknown[]): Promise<T> }): Promise<number> {
  const rows = await prisma.$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'push-send' AND state IN ('created', 'retry', 'active')`;
  return rows[0]!.n;
}
