/**
 * Cross-node cache invalidation over Redis pub/sub: one channel
 * (`${REDIS_KEY_PREFIX}invalidate`), its own subscriber connection. A node trusts its
 * caches only while `subscribed()`; whenever the subscription is (re)established it calls
 * `onReset` so that anything missed while disconnected is read again.
 */
import type { Cluster, Redis } from "ioredis";

type Log = { warn(obj: object, msg: string): void };

export class InvalidationBus {
  private readonly channel: string;
  private ok = false;
  private readonly handlers: ((message: string) => void)[] = [];
  private readonly resets: (() => void)[] = [];

  constructor(
    private readonly sub: Redis | Cluster,
    private readonly pub: Redis | Cluster,
    keyPrefix: string,
    private readonly log: Log,
  ) {
    this.channel = `${keyPrefix}invalidate`;
    sub.on("message", (channel: string, message: string) => {
      if (channel === this.channel) for (const h of this.handlers) h(message);
    });
    const down = () => {
      this.ok = false;
    };
    sub.on("close", down);
    sub.on("end", down);
    sub.on("ready", () => void this.subscribe());
    if (sub.status === "ready") void this.subscribe();
  }

  private async subscribe(): Promise<void> {
    try {
      await this.sub.subscribe(this.channel);
      this.ok = true;
      for (const r of this.resets) r();
    } catch (e) {
      this.ok = false;
      this.log.warn({ err: e instanceof Error ? e.message : String(e) }, "could not subscribe to cache invalidations");
    }
  }

  /** True while this node receives every invalidation. */
  subscribed(): boolean {
    return this.ok;
  }

  onMessage(handler: (message: string) => void): void {
    this.handlers.push(handler);
  }

  /** Called after each (re)subscription: whatever was missed is forgotten. */
  onReset(handler: () => void): void {
    this.resets.push(handler);
  }

  /** Tells every node (this one included); a failure is logged, caches' short TTLs then bound staleness. */
  async publish(message: string): Promise<void> {
    try {
      await this.pub.publish(this.channel, message);
    } catch (e) {
      this.log.warn({ err: e instanceof Error ? e.message : String(e), message }, "could not publish a cache invalidation");
    }
  }

  async close(): Promise<void> {
    this.ok = false;
    await this.sub.quit().catch(() => {});
  }
}
