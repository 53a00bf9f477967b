import { pushOff } from "@/lib/core/push/push-subscriptions";
import { api, json } from "@/lib/edges/http/api.server";

/** Public: the VAPID public key a browser subscribes with (decision 0053); 404 while push is off. */
export const GET = api({}, async (_req, { app }) => {
  const publicKey = await app.push.publicKey();
  if (!publicKey) throw pushOff();
  // The key lives as long as the deployment's PushKey row; a few minutes' cache spares the throttle.
  return json({ publicKey }, 200, { "Cache-Control": "public, max-age=300" });
});
