import { z } from "zod";
import type { Station } from "@/lib/core/stations";
import type { StationWithWork } from "@/lib/core/station-service";
import type { Tenant } from "@/lib/core/tenants";

/** Where a station's own screen is, from the site's root. */
export const stationScreenPath = (tenant: Pick<Tenant, "slug">, id: string) => `/${tenant.slug}/kitchen?station=${id}`;

/** A kitchen station on the wire (the OpenAPI contract's `Station`); stationJson returns its type. */
export const stationJsonSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    default: z.boolean().meta({ description: "Lines without a station of their own (free text, items and categories without one) go here." }),
    printerId: z.string().nullable().meta({ description: "Prints a kitchen chit of its lines of each order; null: none." }),
    position: z.int().min(0),
    screenPath: z.string().meta({ description: "The station's own kitchen screen, from the site's root." }),
  })
  .meta({ id: "Station" });

export function stationJson(s: Station, tenant: Pick<Tenant, "slug">): z.output<typeof stationJsonSchema> {
  return { id: s.id, name: s.name, default: s.isDefault, printerId: s.printerId, position: s.position, screenPath: stationScreenPath(tenant, s.id) };
}

export const listedStationJsonSchema = stationJsonSchema
  .extend({ open: z.int().min(0).meta({ description: "Orders being prepared whose part for this station is not done yet." }) })
  .meta({ id: "ListedStation" });

export function listedStationJson(s: StationWithWork, tenant: Pick<Tenant, "slug">): z.output<typeof listedStationJsonSchema> {
  return { ...stationJson(s, tenant), open: s.open };
}
