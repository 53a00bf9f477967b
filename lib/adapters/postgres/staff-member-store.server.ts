/**
 * A restaurant's people in PostgreSQL (tables StaffMember, PinCount; decision 0051): PIN
 * hashes only. Uniqueness of names is the unique index's; the wrong-PIN counts are rows
 * locked for the length of a check, so every node's tries of one person wait in line.
 */
import type { PinAttempt, PinOutcome, StaffMemberInfo, StaffMemberState, StaffMemberStore } from "@/lib/core/ports";
import type { PinFailures } from "@/lib/core/staff/pin-waits";
import { AppError } from "@/lib/core/errors";
import type { StaffRole } from "@/lib/core/tenants";
import { type Db, Prisma } from "./prisma.server";

const PUBLIC = { id: true, name: true, role: true, active: true, createdAt: true, updatedAt: true } as const;
/** How long a PIN check waits for another check of the same person or address before it gives up. */
const LOCK_TIMEOUT = "3s";

const isUniqueViolation = (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
const failuresOf = (r: { failures: number; lastFailedAt: Date | null; waitUntil: Date | null } | undefined): PinFailures =>
  r ? { failures: r.failures, lastFailedAt: r.lastFailedAt, waitUntil: r.waitUntil } : { failures: 0, lastFailedAt: null, waitUntil: null };

type Tx = Prisma.TransactionClient;

async function audit(tx: Tx, tenantId: string, entries: Array<{ actor: string; action: string; details: unknown }>): Promise<void> {
  for (const e of entries) {
    await tx.auditEntry.create({ data: { tenantId, actor: e.actor, action: e.action, details: e.details as Prisma.InputJsonValue } });
  }
}

/**
 * With shared codes off, the last active manager may not be let go or moved to another role:
 * nobody could open the console. Checked under the tenant's row lock, which turning shared
 * codes off takes too (settings-store), so the two cannot pass each other.
 */
async function keepAManager(tx: Tx, tenantId: string): Promise<void> {
  const [t] = await tx.$queryRaw<Array<{ sharedCodes: boolean }>>`SELECT "sharedCodes" FROM "Tenant" WHERE "id" = ${tenantId}::uuid FOR UPDATE`;
  if (t?.sharedCodes !== false) return;
  if (await tx.staffMember.count({ where: { tenantId, role: "MANAGER", active: true } })) return;
  throw new AppError("CONFLICT", {
    message: `Last active manager of ${tenantId} with shared codes off`,
    userMessage: "This is the last manager who can sign in: add another manager first, or turn shared codes back on.",
    reason: "lastManager",
  });
}

export class PrismaStaffMemberStore implements StaffMemberStore {
  constructor(private readonly db: Db) {}

  list(tenantId: string): Promise<StaffMemberInfo[]> {
    return this.db.staffMember.findMany({ where: { tenantId }, select: PUBLIC, orderBy: [{ active: "desc" }, { nameKey: "asc" }] });
  }

  signInNames(tenantId: string): Promise<Array<{ id: string; name: string; role: StaffRole }>> {
    return this.db.staffMember.findMany({ where: { tenantId, active: true }, select: { id: true, name: true, role: true }, orderBy: { nameKey: "asc" } });
  }

  async create(
    tenantId: string,
    m: Parameters<StaffMemberStore["create"]>[1],
    entry: Parameters<StaffMemberStore["create"]>[2],
  ): Promise<StaffMemberInfo | null> {
    try {
      return await this.db.$transaction(async (tx) => {
        const row = await tx.staffMember.create({ data: { tenantId, ...m }, select: PUBLIC });
        await audit(tx, tenantId, [entry(row)]);
        return row;
      });
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }

  async update(
    tenantId: string,
    id: string,
    change: Parameters<StaffMemberStore["update"]>[2],
    entry: Parameters<StaffMemberStore["update"]>[3],
  ): Promise<StaffMemberInfo | null | "nameTaken"> {
    try {
      return await this.db.$transaction(async (tx) => {
        const before = await tx.staffMember.findFirst({ where: { id, tenantId }, select: { ...PUBLIC, pinHash: true } });
        if (!before) return null;
        // What ends sessions: a new PIN, another role, or active turned either way.
        const ends =
          change.pinHash !== undefined ||
          (change.role !== undefined && change.role !== before.role) ||
          (change.active !== undefined && change.active !== before.active);
        // The row as read is the condition: a change made meanwhile by another manager fails this one, which is tried again.
        const { count } = await tx.staffMember.updateMany({
          where: { id, tenantId, updatedAt: before.updatedAt },
          data: { ...change, updatedAt: new Date(), ...(ends && { generation: { increment: 1 } }) },
        });
        if (count !== 1)
          throw new AppError("CONFLICT", {
            message: `Staff member ${id} changed meanwhile`,
            userMessage: "Somebody changed this person at the same moment: try again.",
            reason: "changedMeanwhile",
          });
        const after = await tx.staffMember.findFirstOrThrow({ where: { id, tenantId }, select: PUBLIC });
        if (before.role === "MANAGER" && before.active && (after.role !== "MANAGER" || !after.active)) await keepAManager(tx, tenantId);
        const e = entry(before, after);
        if (e) await audit(tx, tenantId, [e]);
        return after;
      });
    } catch (e) {
      if (isUniqueViolation(e)) return "nameTaken";
      throw e;
    }
  }

  state(tenantId: string, id: string): Promise<StaffMemberState | null> {
    return this.db.staffMember.findFirst({ where: { id, tenantId }, select: { name: true, role: true, active: true, generation: true } });
  }

  async withPinCounts<T>(tenantId: string, memberId: string, addressKey: string, decide: (a: PinAttempt) => Promise<PinOutcome<T>>): Promise<T> {
    const person = `person:${memberId}`;
    const address = `address:${addressKey}`;
    try {
      return await this.db.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
          await tx.$executeRaw`INSERT INTO "PinCount" ("tenantId", "key") VALUES (${tenantId}::uuid, ${person}), (${tenantId}::uuid, ${address}) ON CONFLICT DO NOTHING`;
          // Locked in one order (by key) on every node: two checks never wait for each other crosswise.
          const rows = await tx.$queryRaw<Array<{ key: string; failures: number; lastFailedAt: Date | null; waitUntil: Date | null }>>`
            SELECT "key", "failures", "lastFailedAt", "waitUntil" FROM "PinCount"
             WHERE "tenantId" = ${tenantId}::uuid AND "key" IN (${person}, ${address}) ORDER BY "key" FOR UPDATE`;
          const member = await tx.staffMember.findFirst({
            where: { id: memberId, tenantId },
            select: { id: true, name: true, role: true, active: true, generation: true, pinHash: true },
          });
          const outcome = await decide({
            member,
            person: failuresOf(rows.find((r) => r.key === person)),
            address: failuresOf(rows.find((r) => r.key === address)),
          });
          if (outcome.counts) {
            for (const [key, f] of [
              [person, outcome.counts.person],
              [address, outcome.counts.address],
            ] as const) {
              await tx.pinCount.update({
                where: { tenantId_key: { tenantId, key } },
                data: { failures: f.failures, lastFailedAt: f.lastFailedAt, waitUntil: f.waitUntil },
              });
            }
          }
          if (outcome.audit?.length) await audit(tx, tenantId, outcome.audit);
          // A few of this restaurant's spent counts go (none: a count of 0; a day old: forgotten by every rule), never one being checked.
          await tx.$executeRaw`DELETE FROM "PinCount" WHERE ctid IN (
            SELECT ctid FROM "PinCount" WHERE "tenantId" = ${tenantId}::uuid AND "key" NOT IN (${person}, ${address})
               AND ("failures" = 0 OR "lastFailedAt" < now() - interval '1 day') LIMIT 50 FOR UPDATE SKIP LOCKED)`;
          return outcome.result;
        },
        { timeout: 15_000 },
      );
    } catch (e) {
      // 55P03: lock_not_available. The check did not run: refused, never let through uncounted.
      if (e instanceof Prisma.PrismaClientKnownRequestError && /55P03|lock timeout/i.test(`${e.code} ${e.message}`)) {
        throw new AppError("UNAVAILABLE", {
          message: "PIN check: another check of this person held the lock",
          userMessage: "Busy checking another sign-in: try again in a moment.",
          reason: "busy",
          details: { retryAfter: 1 },
        });
      }
      throw e;
    }
  }
}
