/**
 * Clips rendered ahead (decision 0036): when an order becomes ready or is called again, every
 * node renders its number's clips in the board's lane — in the languages the restaurant's
 * boards have asked that node for clips in — and pins them while the board shows it, so a board's request is a cache hit whatever strangers ask for meanwhile. The node
 * that made the change hears it from the core (the events it publishes); the others hear
 * it over `relay` (Socket.IO's server-side events, through the Redis adapter).
 */
import type { EventPublisher } from "@/lib/core/ports";
import type { BoardOrder } from "@/lib/core/orders";
import type { Tenant } from "@/lib/core/tenants";
import { LOCALES, type Locale } from "@/lib/core/locales";
import type { VoiceRenderer } from "./voice.server";

/** What one node tells the others: render these clips (for the restaurant's boards that use them), keep them for `forMs`. */
export interface AheadMessage {
  tenantId: string;
  prefix: string;
  number: number;
  locales: Locale[];
  forMs: number;
}

export interface AheadRelay {
  send(message: AheadMessage): void;
  onMessage(handler: (message: unknown) => void): void;
}

/** Socket.IO's server-side events as the relay: every other node hears what one sends. */
export function socketRelay(io: {
  serverSideEmit(event: "voice:ahead", message: unknown): boolean;
  on(event: "voice:ahead", handler: (message: unknown) => void): unknown;
}): AheadRelay {
  return { send: (m) => void io.serverSideEmit("voice:ahead", m), onMessage: (h) => void io.on("voice:ahead", h) };
}

/** Kept a minute beyond the board's own time, for the board that calls it late. */
const MARGIN_MS = 60_000;
/** Nothing stays pinned longer than a day, whatever a message says. */
const MAX_PIN_MS = 24 * 60 * 60_000;

/** The restaurant's own language first; the other too, since a board may choose either (`?lang=`). */
export const localesFor = (tenant: Pick<Tenant, "floor">): Locale[] => {
  const first = tenant.floor.language;
  return first ? [first, ...LOCALES.filter((l) => l !== first)] : [...LOCALES];
};

/** `events`, plus clips rendered ahead on this node and, through `relay`, on every other. */
export function withVoiceAhead(events: EventPublisher, voice: VoiceRenderer, relay: AheadRelay, now: () => number = Date.now): EventPublisher {
  const render = (m: AheadMessage) => {
    for (const locale of m.locales) {
      if (voice.boards.uses(m.tenantId, locale)) voice.ahead(locale, { prefix: m.prefix, number: m.number }, now() + m.forMs);
    }
  };
  relay.onMessage((m) => {
    if (isAheadMessage(m)) render(m);
  });
  const ahead = (tenant: Tenant, order: BoardOrder) => {
    const message: AheadMessage = {
      tenantId: tenant.id,
      prefix: order.prefix,
      number: order.number,
      locales: localesFor(tenant),
      forMs: Math.min(tenant.floor.readyClearMinutes * 60_000 + MARGIN_MS, MAX_PIN_MS),
    };
    render(message);
    relay.send(message);
  };
  return {
    orderCreated: (tenant, order) => events.orderCreated(tenant, order),
    orderUpdated(tenant, order) {
      events.orderUpdated(tenant, order);
      if (order.status === "READY" && !order.cleared) ahead(tenant, order);
    },
    orderCalled(tenant, order) {
      events.orderCalled(tenant, order);
      ahead(tenant, order);
    },
    shiftStarted: (tenant, shift) => events.shiftStarted(tenant, shift),
    settingsChanged: (tenant) => events.settingsChanged(tenant),
    menuChanged: (tenant) => events.menuChanged(tenant),
    printersChanged: (tenant) => events.printersChanged(tenant),
  };
}

/** Another node's message, checked as any input is: only well-formed clips are rendered. */
function isAheadMessage(m: unknown): m is AheadMessage {
  if (typeof m !== "object" || m === null) return false;
  const { tenantId, prefix, number, locales, forMs } = m as Record<string, unknown>;
  return (
    typeof tenantId === "string" &&
    typeof prefix === "string" &&
    /^[A-Z]{0,3}$/.test(prefix) &&
    Number.isSafeInteger(number) &&
    (number as number) >= 1 &&
    (number as number) <= 99_999_999 &&
    Array.isArray(locales) &&
    locales.every((l) => LOCALES.includes(l as Locale)) &&
    typeof forMs === "number" &&
    forMs > 0 &&
    forMs <= MAX_PIN_MS
  );
}
