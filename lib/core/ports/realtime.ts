/** What the core tells the open screens (Socket.IO). */
import type { BusinessDay } from "../business-day";
import type { BoardOrder } from "../orders";
import type { Tenant } from "../tenants";

export interface EventPublisher {
  orderCreated(tenant: Tenant, order: BoardOrder): void;
  orderUpdated(tenant: Tenant, order: BoardOrder): void;
  /** Staff asked every board of the tenant to call this (ready) number again. */
  orderCalled(tenant: Tenant, order: BoardOrder): void;
  shiftStarted(tenant: Tenant, shift: { businessDay: BusinessDay; shift: number; startedAt: string }): void;
  /** The restaurant's settings changed: open screens re-read what they use of them. */
  settingsChanged(tenant: Tenant): void;
  /** The menu changed (an item sold out, a new dish, a price): open kiosks re-read it. */
  menuChanged(tenant: Tenant): void;
  /** A printer's state, settings or queue changed: kiosks and the console re-read them (no payload: staff data). */
  printersChanged(tenant: Pick<Tenant, "id">): void;
}
