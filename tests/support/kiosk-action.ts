/**
 * The kiosk's place-order server action over plain HTTP, as the kiosk's browser sends it:
 * POST /{slug}/kiosk with `Next-Action` (the action's id from the production build), the
 * cashier's session cookie, `Origin`, and the arguments React's encodeReply makes of
 * `(prev, form)`. Needs `npm run build` (as scripts/bench/kiosk.ts does).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** The id of the kiosk's action `name` (placeOrder by default), from the production build's manifest. */
export function placeOrderActionId(name = "placeOrder"): string {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const id = Object.entries(manifest.node).find(([, v]) => v.filename === "app/[tenant]/kiosk/actions.ts" && v.exportedName === name)?.[0];
  if (!id) throw new Error(`${name} is not in .next/server/server-reference-manifest.json: run \`npm run build\``);
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
  const form = { tenant: slug, idempotencyKey: fields.idempotencyKey, itemName: fields.item ?? "Noodles", itemQty: "1" };
  return kioskAction(baseUrl, slug, "placeOrder", form, device === undefined ? `nextup_session=${token}` : `nextup_session=${token}; nextup_device=${device}`);
}

/** Calls the kiosk's action `name` with the form `fields` and the cookies `cookie` ("": none) on `/{slug}/kiosk?{query}`. */
export async function kioskAction(
  baseUrl: string,
  slug: string,
  name: string,
  fields: Record<string, string>,
  cookie: string,
  query = "",
): Promise<KioskResult> {
  const require = createRequire(import.meta.url);
  const { encodeReply } = require("next/dist/compiled/react-server-dom-webpack/client.node") as {
    encodeReply: (v: unknown) => Promise<string | FormData>;
  };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const encoded = new Response(await encodeReply([null, form]));
  const res = await fetch(`${baseUrl}/${slug}/kiosk${query}`, {
    method: "POST",
    headers: {
      "next-action": placeOrderActionId(name),
      accept: "text/x-component",
      ...(cookie ? { cookie } : {}),
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
