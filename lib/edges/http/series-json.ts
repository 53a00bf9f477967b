import { z } from "zod";
import { CHANNELS } from "@/lib/core/orders";
import type { Series } from "@/lib/core/series";

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
