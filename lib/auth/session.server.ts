/**
 * Staff sessions: a JWT (HS256, jose) in an httpOnly, SameSite=Lax cookie, valid for
 * one long service day. It names one tenant and one role, and the generation of that
 * role's sign-in code it was signed under: rotating the code raises the generation and
 * ends older sessions. A person's session (decision 0051) also names the person and their
 * generation (`sid`, `sgen`), which a new PIN, role or deactivation raises. Its id (`jti`)
 * is what signing out revokes (decision 0012).
 */
import { createHash, randomUUID } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import { STAFF_ROLES, type StaffRole } from "@/lib/core/tenants";

export const SESSION_COOKIE = "nextup_session";
export const SESSION_TTL_SECONDS = 16 * 3600;

/** A new session's claims; its id and expiry are given when it is signed. */
export interface NewSession {
  tenantId: string;
  slug: string;
  role: StaffRole;
  name: string;
  /** StaffCredential.generation at sign-in; tokens from before generations count as 1. */
  generation: number;
  /** A person's session: StaffMember.id and its generation at sign-in (absent: a shared role code). */
  member?: { id: string; generation: number };
}

export interface Session extends NewSession {
  /** The token's `jti`; tokens signed before sessions had one get a hash of the token. */
  id: string;
  expiresAt: Date;
}

function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signSession(s: NewSession, secret: string): Promise<string> {
  return new SignJWT({ slug: s.slug, role: s.role, name: s.name, gen: s.generation, ...(s.member && { sid: s.member.id, sgen: s.member.generation }) })
    .setProtectedHeader({ alg: "HS256" })
    .setJti(randomUUID())
    .setSubject(s.tenantId)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(keyOf(secret));
}

/**
 * Tokens that verified, by secret and token: HS256 through WebCrypto cost ~0.4 ms of CPU per
 * staff request (bench:kiosk). Only its expiry can change a verified token's answer.
 */
const verified = new Map<string, Map<string, Session>>();
const MAX_VERIFIED = 10_000;

export async function verifySession(token: string | undefined, secret: string): Promise<Session | null> {
  if (!token) return null;
  const known = verified.get(secret)?.get(token);
  // As jose: expired once `exp` is not after the current second.
  if (known) return known.expiresAt.getTime() / 1000 > Math.floor(Date.now() / 1000) ? { ...known } : null;
  const session = await verifyToken(token, secret);
  if (session) {
    const bySecret = verified.get(secret) ?? verified.set(secret, new Map()).get(secret)!;
    if (bySecret.size >= MAX_VERIFIED) bySecret.clear();
    bySecret.set(token, session);
  }
  return session ? { ...session } : null;
}

async function verifyToken(token: string, secret: string): Promise<Session | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: ["HS256"] });
    const role = payload.role as StaffRole;
    if (!payload.sub || typeof payload.slug !== "string" || !STAFF_ROLES.includes(role)) return null;
    const gen = payload.gen === undefined ? 1 : payload.gen;
    if (typeof gen !== "number" || !Number.isInteger(gen) || gen < 1) return null;
    if (typeof payload.exp !== "number") return null;
    const id = typeof payload.jti === "string" && payload.jti ? payload.jti : `legacy:${createHash("sha256").update(token).digest("hex")}`;
    if (id.length > 100) return null;
    let member: Session["member"];
    if (payload.sid !== undefined) {
      if (typeof payload.sid !== "string" || typeof payload.sgen !== "number" || !Number.isInteger(payload.sgen) || payload.sgen < 1) return null;
      member = { id: payload.sid, generation: payload.sgen };
    }
    return {
      id,
      expiresAt: new Date(payload.exp * 1000),
      tenantId: payload.sub,
      slug: payload.slug,
      role,
      name: typeof payload.name === "string" ? payload.name : role,
      generation: gen,
      ...(member && { member }),
    };
  } catch {
    return null;
  }
}
