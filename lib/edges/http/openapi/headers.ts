/** Response headers the contract documents. */
import { z } from "zod";

/** The per-key limit's fields (draft-ietf-httpapi-ratelimit-headers-10): on every answer to a request counted against a key. */
export const rateLimitHeaders = z.object({
  RateLimit: z
    .string()
    .optional()
    .meta({ description: '`"api";r=<left>;t=<seconds to the window\'s end>` (or `"public"` on the board).', example: '"api";r=1187;t=42' }),
  "RateLimit-Policy": z.string().optional().meta({ description: '`"api";q=<limit>;w=60`.', example: '"api";q=1200;w=60' }),
});

export const noStore = z.object({ "Cache-Control": z.literal("no-store").optional() });
