"use client";

import { useEffect, useState } from "react";
import { useTranslations } from "next-intl";
import { estimateWait, type WaitSummary } from "@/lib/core/wait-estimate";

/** How often the line counts down between reads: the estimate moves by minutes. */
const TICK_MS = 15_000;

/**
 * "About 6–9 min" under "N ahead of you" (decision 0052): the rule applied here with the
 * live count ahead and the server's clock (`readAt` at the last read), so it counts down
 * between reads and follows the queue as it moves. Nothing without a summary.
 */
export function WaitLine({ wait, readAt, placedAt, ahead }: { wait: WaitSummary | null; readAt: number; placedAt: string; ahead: number }) {
  const t = useTranslations("customer.wait");
  // The first paint says what the server computed; the page's clock then runs from the read, corrected by its offset.
  const [tick, setTick] = useState<{ read: number; now: number } | null>(null);
  const now = tick?.read === readAt ? tick.now : readAt;
  useEffect(() => {
    const offset = readAt - Date.now();
    const timer = setInterval(() => setTick({ read: readAt, now: Date.now() + offset }), TICK_MS);
    return () => clearInterval(timer);
  }, [readAt]);

  const estimate = estimateWait(wait, { placedAt: Date.parse(placedAt), ahead }, now);
  if (!estimate) return null;
  const text = estimate.late
    ? t("late")
    : estimate.high <= 1
      ? t("soon")
      : estimate.low === estimate.high
        ? t("about", { minutes: estimate.high })
        : t("range", { low: estimate.low, high: estimate.high });
  return (
    <p className="mt-1 text-xl font-semibold" data-testid="wait" data-late={estimate.late} data-low={estimate.low} data-high={estimate.high}>
      {text}
    </p>
  );
}
