/**
 * Signed-out sessions in PostgreSQL (table RevokedSession): a row per revoked token id,
 * kept until the token would have expired. PostgreSQL rather than Redis, so that Redis
 * restarting empty or failing over can never bring a signed-out session back (0012).
 */
import type { Db } from "./prisma.server";

export class PrismaSessionRevocations {
  constructor(private readonly db: Db) {}

  /** Revokes one session (again is a no-op) and drops rows whose tokens have expired anyway. */
  async revoke(s: { id: string; tenantId: string; expiresAt: Date }): Promise<void> {
    await this.db.$transaction([
      this.db.revokedSession.deleteMany({ where: { expiresAt: { lt: new Date() } } }),
      this.db.revokedSession.upsert({ where: { id: s.id }, create: { id: s.id, tenantId: s.tenantId, expiresAt: s.expiresAt }, update: {} }),
    ]);
  }

  async isRevoked(id: string): Promise<boolean> {
    return (await this.db.revokedSession.findUnique({ where: { id }, select: { id: true } })) !== null;
  }
}
