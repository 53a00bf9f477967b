/**
 * Webhook signing secrets. Unlike a password, a signing secret must be readable to sign
 * each message, so it cannot be hashed: it is stored AES-256-GCM encrypted under a key
 * derived (HKDF) from SESSION_SECRET and bound to its endpoint's id (docs/decisions/0013).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks: 24–64 bytes). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

const VERSION = "v1";

export class SecretCipher {
  private readonly key: Buffer;

  constructor(sessionSecret: string) {
    this.key = Buffer.from(hkdfSync("sha256", sessionSecret, "nextup", "webhook signing secrets v1", 32));
  }

  /** `v1:` + base64(iv | tag | ciphertext); `boundTo` (the endpoint id) must be given again to open it. */
  seal(plain: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
  }

  /** The secret, or null when it was sealed under another key (SESSION_SECRET changed) or for another row. */
  open(sealed: string, boundTo: string): string | null {
    if (!sealed.startsWith(`${VERSION}:`)) return null;
    const raw = Buffer.from(sealed.slice(VERSION.length + 1), "base64");
    if (raw.length < 29) return null;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    } catch {
      return null;
    }
  }
}
