/**
 * Voice clips in memory, in two parts (decision 0036): clips of numbers boards call now
 * are *pinned* until a given time — whatever anyone else asks for, they stay — and every
 * other clip sits in a least-recently-used cache that strangers' renders may churn.
 */
import { Lru } from "./lru";

export interface ClipCacheOptions {
  /** Clips kept by recency (strangers' renders, clips whose pin ran out). */
  size: number;
  /** Pinned clips at most; past it, the pin that ends first becomes an ordinary entry. */
  pinnedSize: number;
  /** Milliseconds (Date.now() by default); pins are compared with it. */
  now?: () => number;
}

export class ClipCache {
  private readonly pinned = new Map<string, { wav: Uint8Array; until: number }>();
  private readonly lru: Lru<string, Uint8Array>;
  private readonly now: () => number;

  constructor(private readonly opts: ClipCacheOptions) {
    this.lru = new Lru(opts.size);
    this.now = opts.now ?? Date.now;
  }

  get(key: string): Uint8Array | undefined {
    const pin = this.pinned.get(key);
    if (pin && pin.until > this.now()) return pin.wav;
    if (pin) this.demote(key);
    return this.lru.get(key);
  }

  /** Keeps `wav`; pinned until `pinUntil` when given (a pin already longer stays). */
  set(key: string, wav: Uint8Array, pinUntil?: number): void {
    const pin = this.pinned.get(key);
    const until = Math.max(pin?.until ?? 0, pinUntil ?? 0);
    if (until <= this.now()) {
      if (pin) this.pinned.delete(key);
      this.lru.set(key, wav);
      return;
    }
    this.pinned.set(key, { wav, until });
    if (this.pinned.size > this.opts.pinnedSize) this.demote(this.endingFirst());
  }

  /** Pins a cached clip until `until`; false when it is not cached (render it, then `set`). */
  pin(key: string, until: number): boolean {
    const wav = this.get(key);
    if (!wav) return false;
    this.set(key, wav, until);
    return true;
  }

  /** Whether `key` is pinned now (for tests and metrics; no recency change). */
  isPinned(key: string): boolean {
    return (this.pinned.get(key)?.until ?? 0) > this.now();
  }

  get size(): { pinned: number; recent: number } {
    return { pinned: this.pinned.size, recent: this.lru.size };
  }

  private demote(key: string): void {
    const pin = this.pinned.get(key);
    if (!pin) return;
    this.pinned.delete(key);
    this.lru.set(key, pin.wav);
  }

  private endingFirst(): string {
    let first: [string, number] | null = null;
    for (const [key, { until }] of this.pinned) if (!first || until < first[1]) first = [key, until];
    return first![0];
  }
}
