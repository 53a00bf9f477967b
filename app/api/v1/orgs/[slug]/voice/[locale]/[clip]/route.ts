import { parseClip, tenantClip, voiceApi, voiceOf } from "@/lib/edges/http/voice.server";

/**
 * Public: `GET /api/v1/orgs/{slug}/voice/{en|zh-CN}/{display}.wav` (`12.wav`, `K12.wav`),
 * the board's fallback voice (eSpeak NG) saying a number an open order of the restaurant
 * holds, for screens whose browser has no voice for the language. Any other number is a
 * 404 unless cached.
 */
export const GET = voiceApi<{ slug: string; locale: string; clip: string }>(async (req, { params, app }) => {
  const clip = parseClip(params, { prefixes: true });
  voiceOf(app); // VOICE_FALLBACK=off: a 404 before any lookup
  const tenant = await app.tenants.get(params.slug);
  return tenantClip(app, req, tenant, clip);
});
