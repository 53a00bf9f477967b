/**
 * A node's read-through cache of what rarely changes (restaurants, API keys, code
 * generations, sign-outs, "has webhooks"): a change forgets its entry on every node
 * (lib/server/caches/invalidation.server.ts); the TTL only bounds staleness should that be missed.
 */
export class ReadThroughCache<K, V> {
  private entries = new Map<K, { value: V; at: number }>();
  /** Raised by every forget: a load that started before must not be kept after. */
  private epoch = 0;

  constructor(
    private readonly load: (key: K) => Promise<V>,
    /** How long `value` is trusted right now (it may shrink while invalidations can be missed). */
    private readonly ttlMs: (value: V) => number,
    /** Beyond this the cache starts over: a flood of made-up keys cannot grow memory. */
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: K): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs(hit.value)) return hit.value;
    const epoch = this.epoch;
    const value = await this.load(key);
    if (epoch !== this.epoch) return value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, at: Date.now() });
    return value;
  }

  forget(key: K): void {
    this.entries.delete(key);
    this.epoch++;
  }

  clear(): void {
    this.entries.clear();
    this.epoch++;
  }
}
