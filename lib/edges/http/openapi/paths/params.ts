/** Path parameters shared by the operations. */
import { z } from "zod";

export const slug = z.string().min(1).meta({ description: "The restaurant's slug.", example: "my-diner" });
export const id = z.string().min(1).meta({ description: "The id (another restaurant's ids are unknown: 404)." });

export const inTenant = z.object({ slug });
export const byId = z.object({ slug, id });
