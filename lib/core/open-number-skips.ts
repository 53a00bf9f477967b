import { AppError } from "./errors";
import { seriesFull, seriesSize, type Series } from "./series";

/** Draws beyond the open numbers one order may skip (other cashiers draw meanwhile) before it gives up. */
const MAX_SKIP_SLACK = 1_000;

/** How many numbers of the series' range `open` holds. */
function openInRange(s: Pick<Series, "first" | "last">, open: ReadonlySet<number>): number {
  let n = 0;
  for (const x of open) if (x >= s.first && (s.last === null || x <= s.last)) n++;
  return n;
}

/**
 * The numbers one order must skip because open orders show them (decision 0027): read once
 * the index first refuses one, read again after a whole lap skipped on one reading. Throws
 * SERIES_FULL when the whole range is open, UNAVAILABLE after too many skips.
 */
export class OpenNumberSkips {
  private open: Set<number> | null = null;
  private skipped = 0;
  /** Numbers skipped on the current reading since it was made. */
  private skippedOnRead = 0;

  constructor(
    private readonly series: Pick<Series, "name" | "prefix" | "first" | "last">,
    private readonly readOpen: () => Promise<Set<number>>,
    private readonly tenantSlug: string,
  ) {}

  /** Whether the last reading holds `number` open (nothing is read before the first refusal). */
  holds(number: number): boolean {
    return this.open?.has(number) ?? false;
  }

  /** A drawn number that `holds`: not spent, it comes round on a later lap or shift. */
  async skip(): Promise<void> {
    this.count();
    // A whole lap skipped on one reading: the free numbers it saw went to other cashiers'
    // tickets (their draws interleave with ours, so ours may never show them). Read again.
    if (++this.skippedOnRead >= seriesSize(this.series)) await this.read();
  }

  /** The index refused `number` as open on the floor: read the open numbers (it among them). */
  async refused(number: number): Promise<void> {
    await this.read(number);
    this.count();
  }

  private async read(refused?: number): Promise<void> {
    const open = await this.readOpen();
    if (refused !== undefined) open.add(refused);
    this.open = open;
    this.skippedOnRead = 0;
    // Every number of the range open: refused before another ticket is drawn (nothing to hand out).
    if (openInRange(this.series, open) >= seriesSize(this.series)) throw seriesFull(this.series);
  }

  private count(): void {
    if (++this.skipped > (this.open?.size ?? 0) + MAX_SKIP_SLACK)
      throw new AppError("UNAVAILABLE", {
        message: `Skipped ${this.skipped} open numbers for ${this.tenantSlug} without finding a free one`,
        userMessage: "Could not issue a free number right now. Please try again.",
      });
  }
}
