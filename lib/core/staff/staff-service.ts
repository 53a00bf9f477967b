/**
 * A restaurant's people (decision 0051): a manager adds, renames, moves to another role,
 * gives a new PIN, or lets someone go; each change writes its audit entry with it, and a
 * change of PIN, role or active ends that person's sessions on every node. A sign-in with a
 * PIN is counted per person and per address inside the store's lock, before the PIN is
 * checked, so no try escapes its count.
 */
import { z } from "zod";
import { roleSchema } from "../api-keys";
import { SYSTEM_ACTOR, type AuditEntry } from "../audit";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { parseOrThrow } from "../orders";
import type { CacheInvalidator, Clock, StaffMemberChange, StaffMemberInfo, StaffMemberStore } from "../ports";
import type { StaffRole, Tenant } from "../tenants";
import { lineText } from "../text";
import { nameKey, pinSchema } from "./pin";
import { ADDRESS_WAITS, afterWrongPin, current, NO_FAILURES, PERSON_WAITS, waitLeft, type PinFailures } from "./pin-waits";

const name = lineText("Name").min(1, "Name is required").max(60, "Name is too long (60 characters at most)");

export const newStaffMemberSchema = z.strictObject({ name, role: roleSchema, pin: pinSchema });

export const staffMemberUpdateSchema = z
  .strictObject({
    name: name.optional(),
    role: roleSchema.optional(),
    pin: pinSchema.optional(),
    active: z.boolean({ error: "active must be true or false" }).optional(),
  })
  .refine((u) => Object.values(u).some((v) => v !== undefined), "Send at least one of name, role, pin, active");

/** Who signed in: what the session carries. */
export interface SignedInMember {
  id: string;
  name: string;
  role: StaffRole;
  generation: number;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class StaffService {
  constructor(
    private readonly deps: {
      store: StaffMemberStore;
      hash: (pin: string) => Promise<string>;
      verify: (hash: string, pin: string) => Promise<boolean>;
      invalidate: CacheInvalidator;
      clock: Clock;
    },
  ) {}

  list(tenant: Tenant): Promise<StaffMemberInfo[]> {
    return this.deps.store.list(tenant.id);
  }

  /** The names the sign-in page offers: active people only; never a PIN or its hash. */
  signInNames(tenant: Tenant): Promise<Array<{ id: string; name: string; role: StaffRole }>> {
    return this.deps.store.signInNames(tenant.id);
  }

  async create(tenant: Tenant, input: unknown, actor: string): Promise<StaffMemberInfo> {
    const data = parseOrThrow(newStaffMemberSchema, input ?? {}, "staff member");
    const made = await this.deps.store.create(
      tenant.id,
      { name: data.name, nameKey: nameKey(data.name), role: data.role, pinHash: await this.deps.hash(data.pin) },
      (m) => ({ actor, action: "staff.add", details: { id: m.id, name: m.name, role: m.role } }),
    );
    if (!made) throw nameTaken(data.name);
    return made;
  }

  /** A partial change; a new PIN, role or `active: false` ends the person's sessions everywhere. */
  async update(tenant: Tenant, id: string, input: unknown, actor: string): Promise<StaffMemberInfo> {
    const data = parseOrThrow(staffMemberUpdateSchema, input ?? {}, "staff member");
    const change: StaffMemberChange = {
      ...(data.name !== undefined && { name: data.name, nameKey: nameKey(data.name) }),
      ...(data.role !== undefined && { role: data.role }),
      ...(data.active !== undefined && { active: data.active }),
      ...(data.pin !== undefined && { pinHash: await this.deps.hash(data.pin) }),
    };
    const updated = isUuid(id)
      ? await this.deps.store.update(tenant.id, id.toLowerCase(), change, (before, after) => {
          const changes: Record<string, unknown> = {};
          for (const f of ["name", "role", "active"] as const) if (before[f] !== after[f]) changes[f] = { from: before[f], to: after[f] };
          if (data.pin !== undefined) changes.pin = "changed";
          return Object.keys(changes).length ? { actor, action: "staff.update", details: { id: after.id, name: after.name, changes } } : null;
        })
      : null;
    if (updated === "nameTaken") throw nameTaken(data.name ?? "");
    if (!updated)
      throw new AppError("NOT_FOUND", {
        message: `No staff member ${id} in ${tenant.slug}`,
        userMessage: "No such person in this restaurant.",
        reason: "personNotFound",
      });
    await this.deps.invalidate.staffMemberChanged(tenant.id, updated.id);
    return updated;
  }

  /**
   * Checks `pin` for `memberId` from `addressKey` (a client address, IPv6 by /64). Refused
   * before the check while the person or the address must wait; a wrong PIN counts against
   * both, a right one clears the person's count (never the address's: one's own PIN must not
   * buy more guesses at a colleague's).
   */
  async signInWithPin(tenant: Tenant, memberId: string, pin: string, addressKey: string): Promise<SignedInMember> {
    if (!isUuid(memberId)) throw unknownPerson(tenant);
    const now = this.deps.clock.now();
    return this.deps.store
      .withPinCounts<SignedInMember | WrongPin>(tenant.id, memberId.toLowerCase(), addressKey, async ({ member, person, address }) => {
        if (!member || !member.active) throw unknownPerson(tenant);
        const personWait = waitLeft(PERSON_WAITS, person, now);
        const addressWait = waitLeft(ADDRESS_WAITS, address, now);
        if (personWait > 0 || addressWait > 0) throw mustWait(member.name, personWait, addressWait);
        // The check itself (argon2id) runs while both counts are held.
        if (await this.deps.verify(member.pinHash, pin)) {
          return {
            counts: { person: NO_FAILURES, address: forgiven(address, current(PERSON_WAITS, person, now).failures, now) },
            // Who signed in, where: the manager reads it beside what they did.
            audit: [
              {
                actor: `${member.name} (staff)`,
                action: "staff.signIn",
                details: { id: member.id, name: member.name, role: member.role, address: addressKey },
              },
            ],
            result: { id: member.id, name: member.name, role: member.role, generation: member.generation },
          };
        }
        const nextPerson = afterWrongPin(PERSON_WAITS, person, now);
        const nextAddress = afterWrongPin(ADDRESS_WAITS, address, now);
        const audit: Array<Omit<AuditEntry, "at">> = [];
        if (nextPerson.waitUntil)
          audit.push({
            actor: SYSTEM_ACTOR,
            action: "staff.pinWait",
            details: {
              id: member.id,
              name: member.name,
              failures: nextPerson.failures,
              waitSeconds: seconds(nextPerson.waitUntil.getTime() - now.getTime()),
              address: addressKey,
            },
          });
        if (nextAddress.waitUntil)
          audit.push({
            actor: SYSTEM_ACTOR,
            action: "staff.pinWaitAddress",
            details: { address: addressKey, failures: nextAddress.failures, waitSeconds: seconds(nextAddress.waitUntil.getTime() - now.getTime()) },
          });
        const personMs = nextPerson.waitUntil ? nextPerson.waitUntil.getTime() - now.getTime() : 0;
        const addressMs = nextAddress.waitUntil ? nextAddress.waitUntil.getTime() - now.getTime() : 0;
        // The device's wait (everyone on it) is said as such, not as this person's.
        const result = { wrong: member.name, waitMs: Math.max(personMs, addressMs), device: addressMs > personMs };
        return { counts: { person: nextPerson, address: nextAddress }, audit, result };
      })
      .then((outcome) => {
        if (!("wrong" in outcome)) return outcome;
        // Stored: the wrong PIN counted. Said after, so that the count is never rolled back with the refusal.
        const retryAfter = outcome.waitMs ? seconds(outcome.waitMs) : 0;
        const name = outcome.wrong;
        throw new AppError("UNAUTHENTICATED", {
          message: `Wrong PIN for staff member ${memberId} of ${tenant.slug}`,
          userMessage: !retryAfter
            ? `Wrong PIN for ${name}.`
            : outcome.device
              ? `Wrong PIN for ${name}. Too many wrong PINs from this device — try again in ${retryAfter} s.`
              : `Wrong PIN for ${name} — try again in ${retryAfter} s.`,
          reason: !retryAfter ? "wrongPin" : outcome.device ? "wrongPinWaitAddress" : "wrongPinWait",
          details: { name, ...(retryAfter && { retryAfter }) },
        });
      });
  }
}

/** A wrong PIN, counted: whose, the wait it started (if any), and whether that wait is the device's (everyone on it) rather than the person's. */
type WrongPin = { wrong: string; waitMs: number; device: boolean };

/**
 * The address's count after a right PIN: that person's own wrong PINs (typos, now put right) no
 * longer count against the device — tablets behind one address (a shop's router) would
 * otherwise add up everybody's typos into a wait for all. Others' wrong PINs stay counted: one's
 * own PIN buys no guesses at a colleague's.
 */
function forgiven(address: PinFailures, ownWrong: number, now: Date): PinFailures {
  const c = current(ADDRESS_WAITS, address, now);
  return c.failures === 0 ? c : { ...c, failures: Math.max(0, c.failures - ownWrong) };
}

function nameTaken(name: string): AppError {
  return new AppError("CONFLICT", {
    message: `Staff name taken: ${name}`,
    userMessage: `Somebody here is already called "${name}": add a surname or an initial.`,
    reason: "nameTaken",
    details: { fields: [{ path: "name", message: "Name is taken in this restaurant" }] },
  });
}

function unknownPerson(tenant: Tenant): AppError {
  return new AppError("UNAUTHENTICATED", {
    message: `Sign-in as an unknown or inactive staff member of ${tenant.slug}`,
    userMessage: "This name cannot sign in here: choose your name again, or ask your manager.",
    reason: "unknownPerson",
  });
}

function mustWait(who: string, personMs: number, addressMs: number): AppError {
  const ms = Math.max(personMs, addressMs);
  const retryAfter = seconds(ms);
  const forPerson = personMs >= addressMs;
  return new AppError("RATE_LIMITED", {
    message: forPerson ? `Wrong-PIN wait for ${who}` : "Wrong-PIN wait for an address",
    userMessage: forPerson
      ? `Too many wrong PINs for ${who} — try again in ${retryAfter} s.`
      : `Too many wrong PINs from this device — try again in ${retryAfter} s.`,
    reason: forPerson ? "pinWaitPerson" : "pinWaitAddress",
    details: { retryAfter, name: who },
  });
}
