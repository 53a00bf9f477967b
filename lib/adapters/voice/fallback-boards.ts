/**
 * Which restaurants' boards use the fallback voice, and in which language, as this node has
 * seen them ask for clips (decision 0036). Clips are rendered ahead only for those: most
 * boards speak with the device's voice and never ask, and a render costs ~0.3 s of a core.
 */
import type { Locale } from "@/lib/core/locales";

/** A restaurant closed for a few days still counts when it opens again. */
const REMEMBER_MS = 7 * 24 * 60 * 60_000;

export class FallbackBoards {
  private readonly seen = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A clip of `tenantId`'s was asked for in `locale` (by its board, or by anyone: it only earns renders of called numbers). */
  saw(tenantId: string, locale: Locale): void {
    const now = this.now();
    const key = `${tenantId}/${locale}`;
    if (!this.seen.has(key)) for (const [k, at] of this.seen) if (at + REMEMBER_MS <= now) this.seen.delete(k);
    this.seen.set(key, now);
  }

  uses(tenantId: string, locale: Locale): boolean {
    const at = this.seen.get(`${tenantId}/${locale}`);
    return at !== undefined && at + REMEMBER_MS > this.now();
  }
}
