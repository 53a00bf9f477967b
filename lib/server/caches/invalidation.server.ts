/**
 * The caches' invalidation, wired: a write forgets locally at once and tells the other
 * nodes through the bus. Fail-safe: caches keep their normal TTL only while this node is
 * subscribed; while the bus is down they hold entries for at most 1 s, and every
 * (re)subscription clears them.
 */
import { STAFF_ROLES, type StaffRole } from "@/lib/core/tenants";
import type { InvalidationBus } from "@/lib/adapters/redis/invalidation-bus.server";
import type { Access } from "@/lib/auth/access.server";
import type { TenantDirectory } from "./tenant-directory.server";
import type { WebhookOutbox } from "@/lib/adapters/postgres/webhook-outbox.server";
import type { PrismaPrinterStore } from "@/lib/adapters/postgres/printer-store.server";
import type { CacheInvalidator } from "@/lib/core/ports";

/** How long a cache entry may be trusted while the bus is down. */
export const UNSUBSCRIBED_TTL_MS = 1_000;

/** The core's invalidations, and a signed-out session (which only the server knows of). */
export interface Invalidator extends CacheInvalidator {
  sessionEnded(id: string): Promise<void>;
}

export function wireInvalidation(
  bus: InvalidationBus,
  caches: { tenants: TenantDirectory; access: Access; outbox: WebhookOutbox; printers: Pick<PrismaPrinterStore, "forget" | "clear"> },
): Invalidator {
  const { tenants, access, outbox, printers } = caches;
  bus.onReset(() => {
    tenants.clear();
    access.clear();
    outbox.clear();
    printers.clear();
  });
  bus.onMessage((message) => {
    // A session id may itself hold ':' ("legacy:<hash>").
    if (message.startsWith("session:")) return access.forgetSession(message.slice("session:".length));
    const [kind, a, b] = message.split(":");
    if (kind === "tenant" && a) tenants.forget(a);
    else if (kind === "keys") access.forgetKeys();
    else if (kind === "webhooks" && a) outbox.forget(a);
    else if (kind === "printers" && a) printers.forget(a);
    else if (kind === "staff" && a && STAFF_ROLES.includes(b as StaffRole)) access.forgetStaff(a, b as StaffRole);
    else if (kind === "member" && a && b) access.forgetMember(a, b);
  });
  return {
    async tenantChanged(slug) {
      tenants.forget(slug);
      await bus.publish(`tenant:${slug}`);
    },
    async keysChanged() {
      access.forgetKeys();
      await bus.publish("keys");
    },
    async staffChanged(tenantId, role) {
      access.forgetStaff(tenantId, role);
      await bus.publish(`staff:${tenantId}:${role}`);
    },
    async staffMemberChanged(tenantId, memberId) {
      access.forgetMember(tenantId, memberId);
      await bus.publish(`member:${tenantId}:${memberId}`);
    },
    async webhooksChanged(tenantId) {
      outbox.forget(tenantId);
      await bus.publish(`webhooks:${tenantId}`);
    },
    async printersChanged(tenantId) {
      printers.forget(tenantId);
      await bus.publish(`printers:${tenantId}`);
    },
    async sessionEnded(id) {
      access.forgetSession(id);
      await bus.publish(`session:${id}`);
    },
  };
}

/** A cache TTL that shrinks to UNSUBSCRIBED_TTL_MS while the bus is down. */
export const ttlWhileSubscribed = (bus: InvalidationBus, normalMs: number) => (): number =>
  bus.subscribed() ? normalMs : Math.min(normalMs, UNSUBSCRIBED_TTL_MS);
