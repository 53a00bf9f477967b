/**
 * Staff secrets are hashed with argon2id (@node-rs/argon2: maintained, prebuilt, no
 * install script). API keys are long random tokens, so a SHA-256 of the key is enough
 * to store and look them up (as GitHub and Stripe do); only a short prefix is ever
 * shown or logged.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import type { StaffRole } from "@/lib/core/tenants";

export async function hashSecret(secret: string): Promise<string> {
  return hash(secret);
}

export async function verifySecret(secretHash: string, secret: string): Promise<boolean> {
  try {
    return await verify(secretHash, secret);
  } catch {
    return false;
  }
}

const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"; // no 0/o, 1/l/i: read aloud, typed on a tablet

/** A sign-in secret staff can type: 4 groups of 4, e.g. "k7fq-2mzp-x9ra-c4tn" (~79 bits). */
export function generateStaffSecret(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join("")).join("-");
}

const ROLE_TAG: Record<StaffRole, string> = { MANAGER: "mgr", CASHIER: "csh", KITCHEN: "kit" };

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** A new API key `nxu_<role>_<prefix>_<secret>`; store `prefix` and `hash`, show `key` once. */
export function generateApiKey(role: StaffRole): { key: string; prefix: string; hash: string } {
  // 64 bits: a collision on the unique prefix is negligible (32 bits collided about once per 9,000 keys).
  const prefix = randomBytes(8).toString("hex");
  const secret = randomBytes(24).toString("base64url");
  const key = `nxu_${ROLE_TAG[role]}_${prefix}_${secret}`;
  return { key, prefix, hash: hashApiKey(key) };
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
