/**
 * The wait estimate as the edges use it (decision 0052): the restaurant's last hour read at
 * most once per CACHE_MS per node (a read-through cache of the summary), and the rule
 * (wait-estimate.ts) applied to one order with the orders ahead of it.
 */
import { businessDayAt, type BusinessDay } from "./business-day";
import type { Order } from "./orders";
import type { Clock, WaitHistory } from "./ports";
import { ReadThroughCache } from "./read-through-cache";
import type { Tenant } from "./tenants";
import { estimateWait, summarizeWaits, WAIT_WINDOW_MS, type WaitEstimate, type WaitSummary } from "./wait-estimate";

/** How long a node trusts a restaurant's summary: the estimate moves by minutes, a read per 20 s per node is cheap. */
export const WAIT_CACHE_MS = 20_000;
/** An order placed longer than this before it was made ready is no sample of time-to-ready (it was forgotten). */
const OLDEST_SAMPLE_MS = 4 * 3_600_000;

/** An order the estimate speaks for: still being prepared (not ready, collected, cancelled or cleared). */
export const estimable = (order: Pick<Order, "status" | "clearedAt">): boolean => order.status === "PLACED" && !order.clearedAt;

export class WaitEstimates {
  /** Keyed by what a load needs (the restaurant and its day rule, JSON): a changed time zone reads afresh. */
  private readonly cache: ReadThroughCache<string, WaitSummary | null>;
  /** Reads under way, by key. */
  private readonly reading = new Map<string, Promise<WaitSummary | null>>();

  constructor(private readonly deps: { history: WaitHistory; clock: Clock; cacheMs?: number }) {
    this.cache = new ReadThroughCache(
      (key) => this.load(JSON.parse(key) as Pick<Tenant, "id" | "timeZone" | "dayStartMinutes">),
      () => deps.cacheMs ?? WAIT_CACHE_MS,
    );
  }

  private async load(tenant: Pick<Tenant, "id" | "timeZone" | "dayStartMinutes">): Promise<WaitSummary | null> {
    const now = this.deps.clock.now().getTime();
    const oldest = new Date(now - OLDEST_SAMPLE_MS);
    const days = [...new Set<BusinessDay>([businessDayAt(oldest, tenant), businessDayAt(new Date(now), tenant)])];
    const samples = await this.deps.history.readies(tenant.id, days, oldest, new Date(now - WAIT_WINDOW_MS));
    return summarizeWaits(samples, now);
  }

  /** The restaurant's summary now (cached per node); null: too little recent history. */
  async summary(tenant: Tenant): Promise<WaitSummary | null> {
    const key = JSON.stringify({ id: tenant.id, timeZone: tenant.timeZone, dayStartMinutes: tenant.dayStartMinutes });
    // Customers asking at once while the entry is stale share one read (the cache alone would start one each).
    const pending = this.reading.get(key);
    if (pending) return pending;
    const read = this.cache.get(key).finally(() => this.reading.delete(key));
    this.reading.set(key, read);
    return read;
  }

  /** The estimate for `order` with `ahead` orders ahead of it; null when it is not being prepared or history is too thin. */
  async of(tenant: Tenant, order: Order, ahead: number): Promise<WaitEstimate | null> {
    if (!estimable(order)) return null;
    const summary = await this.summary(tenant);
    return estimateWait(summary, { placedAt: order.createdAt.getTime(), ahead }, this.deps.clock.now().getTime());
  }
}
