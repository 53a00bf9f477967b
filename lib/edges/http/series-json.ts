import type { Series } from "@/lib/core/series";

/** The public JSON form of a number series. */
export function seriesJson(s: Series) {
  return { id: s.id, name: s.name, prefix: s.prefix, first: s.first, last: s.last, channels: s.channels, default: s.isDefault };
}
