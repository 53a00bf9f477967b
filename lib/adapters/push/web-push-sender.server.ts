/**
 * The send (decision 0053): the payload encrypted `aes128gcm` for the browser's keys (RFC
 * 8291, by http_ece), signed with the deployment's VAPID key (RFC 8292: an ES256 JWT by
 * jose, `aud` the push service's origin), POSTed with a timeout and no redirects.
 */
import { createECDH, createPrivateKey, type KeyObject } from "node:crypto";
import { encrypt } from "http_ece";
import { SignJWT } from "jose";
import type { PushAnswerRecord, PushRequest, PushSender } from "@/lib/core/ports";
import { parseRetryAfter } from "@/lib/core/push/push-retry";
import type { VapidKeys } from "@/lib/adapters/postgres/push-store.server";

/** The JWT's lifetime: RFC 8292 allows at most 24 hours. */
const JWT_SECONDS = 12 * 3600;
/** A signed JWT is reused this long per push service (one signature, not one per push). */
const JWT_REUSE_MS = 3600_000;

/** The private key as a KeyObject jose signs with. */
export function vapidSigningKey(keys: VapidKeys): KeyObject {
  const point = Buffer.from(keys.publicKey, "base64url");
  return createPrivateKey({
    key: { kty: "EC", crv: "P-256", d: keys.privateKey, x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33, 65).toString("base64url") },
    format: "jwk",
  });
}

/** The encrypted body for one browser: a fresh sender key pair and salt each time (RFC 8291 §3.4). */
export function encryptPayload(plain: string, p256dh: string, auth: string): Buffer {
  const local = createECDH("prime256v1");
  local.generateKeys();
  return encrypt(Buffer.from(plain, "utf8"), {
    version: "aes128gcm",
    dh: Buffer.from(p256dh, "base64url"),
    privateKey: local,
    authSecret: Buffer.from(auth, "base64url"),
  });
}

export function createPushSender(opts: { keys: VapidKeys; contact: string; timeoutMs: number; now?: () => Date }): PushSender {
  const key = vapidSigningKey(opts.keys);
  const now = opts.now ?? (() => new Date());
  const jwts = new Map<string, { token: string; until: number }>();

  const jwtFor = async (audience: string): Promise<string> => {
    const t = now().getTime();
    const cached = jwts.get(audience);
    if (cached && cached.until > t) return cached.token;
    const token = await new SignJWT({ sub: opts.contact })
      .setProtectedHeader({ alg: "ES256", typ: "JWT" })
      .setAudience(audience)
      .setExpirationTime(Math.floor(t / 1000) + JWT_SECONDS)
      .sign(key);
    jwts.set(audience, { token, until: t + JWT_REUSE_MS });
    return token;
  };

  return async (r: PushRequest): Promise<PushAnswerRecord> => {
    const audience = new URL(r.endpoint).origin;
    const body = encryptPayload(JSON.stringify(r.payload), r.p256dh, r.auth);
    try {
      const res = await fetch(r.endpoint, {
        method: "POST",
        redirect: "manual",
        signal: AbortSignal.timeout(opts.timeoutMs),
        headers: {
          Authorization: `vapid t=${await jwtFor(audience)}, k=${opts.keys.publicKey}`,
          TTL: String(r.ttl),
          Urgency: "high",
          Topic: r.topic,
          "Content-Encoding": "aes128gcm",
          "Content-Type": "application/octet-stream",
        },
        body: new Uint8Array(body),
      });
      // The answer's body is not needed; read it so the connection is reused.
      await res.arrayBuffer().catch(() => undefined);
      return {
        status: res.status,
        retryAfterSeconds: parseRetryAfter(res.headers.get("retry-after"), now()),
        ...(res.ok ? {} : { error: `the push service answered ${res.status}` }),
      };
    } catch (e) {
      const err = e as { name?: string; message?: string; cause?: { code?: string } };
      const error =
        err.name === "TimeoutError"
          ? `no answer within ${opts.timeoutMs} ms`
          : `could not reach the push service (${err.cause?.code ?? err.message ?? "error"})`;
      return { status: null, error };
    }
  };
}
