/**
 * The kiosk's place-order server action over plain HTTP, as the kiosk's browser sends it:
 * POST /{slug}/kiosk with `Next-Action` (the action's id from the production build), the
 * cashier's session cookie, `Origin`, and the arguments React's encodeReply makes of
 * `(prev, form)`. Needs `npm run build` (as scripts/bench/kiosk.ts does).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** The place-order action's id, from the production build's manifest. */
export function placeOrderActionId(): string {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const id = Object.entries(manifest.node).find(([, v]) => v.filename === "app/[tenant]/kiosk/actions.ts" && v.exportedName === "placeOrder")?.[0];
  if (!id) throw new Error("placeOrder is not in .next/server/server-reference-manifest.json: run `npm run build`");
  return id;
}

export interface KioskResult {
  status: number;
  /** The action's result (`{ ok, data | error }`), or null when the answer held none. */
  result: { ok: true; data: { orderId: string; number: number; created: boolean } } | { ok: false; error: string; code?: string } | null;
  text: string;
}

/**
 * Takes an order on the kiosk of `slug` with the session `token` (and the device cookie
 * `device`, when given): one free-text item and the form's idempotency key.
 */
export async function kioskPlaceOrder(
  baseUrl: string,
  slug: string,
  token: string,
  fields: { idempotencyKey: string; item?: string },
  device?: string,
): Promise<KioskResult> {
  const require = createRequire(import.meta.url);
  const { encodeReply } = require("next/dist/compiled/react-server-dom-webpack/client.node") as {
    encodeReply: (v: unknown) => Promise<string | FormData>;
  };
  const form = new FormData();
  form.append("tenant", slug);
  form.append("idempotencyKey", fields.idempotencyKey);
  form.append("itemName", fields.item ?? "Noodles");
  form.append("itemQty", "1");
  const encoded = new Response(await encodeReply([null, form]));
  const res = await fetch(`${baseUrl}/${slug}/kiosk`, {
    method: "POST",
    headers: {
      "next-action": placeOrderActionId(),
      accept: "text/x-component",
      cookie: device === undefined ? `nextup_session=${token}` : `nextup_session=${token}; nextup_device=${device}`,
      origin: baseUrl,
      "content-type": encoded.headers.get("content-type")!,
    },
    body: await encoded.text(),
  });
  const text = await res.text();
  // React's flight stream: the action's result is row `1:{"ok":…}`, right after the QR's text row (no newline between).
  const line = /1:(\{"ok":.*\})$/m.exec(text)?.[1];
  return { status: res.status, result: line ? (JSON.parse(line) as KioskResult["result"]) : null, text };
}
