/**
 * Runs in the browser before the app's own code (Next.js). zod probes for eval with
 * `new Function` when a schema is built; under the Content-Security-Policy (no
 * 'unsafe-eval') the browser reports that probe as a violation even though zod then does
 * without. `jitless` skips the probe (decision 0012).
 */
import { z } from "zod";

z.config({ jitless: true });
