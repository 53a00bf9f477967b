import { SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signSession, verifySession } from "@/lib/auth/session.server";

const secret = "s".repeat(32);
const claims = { tenantId: "00000000-0000-4000-8000-000000000001", slug: "demo", role: "KITCHEN" as const, name: "Kitchen", generation: 1 };

describe("session ids", () => {
  it("every session gets its own id (jti) and its expiry, which signing out revokes", async () => {
    const [a, b] = await Promise.all([signSession(claims, secret), signSession(claims, secret)]);
    const [sa, sb] = await Promise.all([verifySession(a, secret), verifySession(b, secret)]);
    expect(sa?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sb?.id).not.toBe(sa?.id);
    expect(sa!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 15 * 3600_000);
  });
  it("a token signed before sessions had an id is named by its hash, the same each time", async () => {
    const legacy = await new SignJWT({ slug: "demo", role: "KITCHEN", name: "Kitchen" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(claims.tenantId)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(secret));
    const [x, y] = await Promise.all([verifySession(legacy, secret), verifySession(legacy, secret)]);
    expect(x?.id).toMatch(/^legacy:[0-9a-f]{64}$/);
    expect(y?.id).toBe(x?.id);
  });

  describe("a token verified once (remembered: its signature is not checked again)", () => {
    afterEach(() => vi.useRealTimers());
    it("verifies again with its secret only, and ends at its expiry", async () => {
      const token = await new SignJWT({ slug: "demo", role: "KITCHEN", name: "Kitchen", gen: 1 })
        .setProtectedHeader({ alg: "HS256" })
        .setJti("remembered-session")
        .setSubject(claims.tenantId)
        .setIssuedAt()
        .setExpirationTime("60s")
        .sign(new TextEncoder().encode(secret));
      const first = await verifySession(token, secret);
      expect(first?.id).toBe("remembered-session");
      expect(await verifySession(token, secret)).toEqual(first);
      expect(await verifySession(token, "t".repeat(32))).toBeNull();
      vi.useFakeTimers({ now: first!.expiresAt.getTime() });
      expect(await verifySession(token, secret)).toBeNull();
    });
  });
});
