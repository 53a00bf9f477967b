import { z } from "zod";
import { CHANNELS } from "@/lib/core/orders";
import type { Series } from "@/lib/core/series";
import type { SeriesWithOpen } from "@/lib/core/series-service";

/** A number series on the wire (the OpenAPI contract's `Series`); seriesJson returns its type. */
export const seriesJsonSchema = z
  .object({
    id: z.string().meta({ description: "A UUID, or `default` for the default series." }),
    name: z.string(),
    prefix: z.string().meta({ description: '0–3 letters A–Z ("" for plain numbers).' }),
    first: z.int().min(1),
    last: z.int().min(1).nullable().meta({ description: "null: no end." }),
    channels: z.array(z.enum(CHANNELS)),
    default: z.boolean(),
  })
  .meta({ id: "Series" });

/** The public JSON form of a number series. */
export function seriesJson(s: Series): z.output<typeof seriesJsonSchema> {
  return { id: s.id, name: s.name, prefix: s.prefix, first: s.first, last: s.last, channels: s.channels, default: s.isDefault };
}

/** A series as the list shows it: with the numbers of its range open orders hold. */
export const listedSeriesJsonSchema = seriesJsonSchema
  .extend({
    open: z.int().min(0).meta({
      description:
        "How many numbers of the range open (placed or ready, not cleared) orders show, whichever series numbered them. When it reaches the range's size, orders are refused with `SERIES_FULL`; the console warns from 80 %.",
    }),
  })
  .meta({ id: "ListedSeries" });

/** The public JSON form of a listed series. */
export function listedSeriesJson(s: SeriesWithOpen): z.output<typeof listedSeriesJsonSchema> {
  return { ...seriesJson(s), open: s.open };
}
