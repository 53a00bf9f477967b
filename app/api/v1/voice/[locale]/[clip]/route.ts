import { AppError } from "@/lib/core/errors";
import { asLocale, LOCALES } from "@/lib/core/locales";
import { api, rateLimit } from "@/lib/edges/http/api.server";
import { clientIp } from "@/app/_lib/tenant.server";
import { limitKey } from "@/lib/server/client-address.server";

/** Order numbers go up to this (the kitchen's typed-number limit). */
const MAX_NUMBER = 99_999_999;

/**
 * Public: `GET /api/v1/voice/{en|zh-CN}/{number}.wav`, the board's fallback voice (eSpeak NG)
 * saying the number, for screens whose browser has no voice for the language. A clip never
 * changes, so browsers and proxies may keep it.
 */
export const GET = api<{ locale: string; clip: string }>({}, async (req, { params, app }) => {
  const locale = LOCALES.find((l) => l === params.locale) ?? null;
  if (!locale) {
    const hint = asLocale(params.locale) ? ` (spelled ${asLocale(params.locale)})` : "";
    throw new AppError("BAD_INPUT", { message: `Unknown language "${params.locale}"${hint}: use ${LOCALES.join(" or ")}` });
  }
  const m = /^(\d{1,8})\.wav$/.exec(params.clip);
  const number = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(number) || number < 1 || number > MAX_NUMBER) {
    throw new AppError("BAD_INPUT", { message: `"${params.clip}" is not {number}.wav with a number from 1 to ${MAX_NUMBER}` });
  }
  if (!app.voice) {
    throw new AppError("NOT_FOUND", { message: "The fallback voice is off on this server (VOICE_FALLBACK=off)" });
  }
  // Rendering costs a core for ~300 ms: a public route throttles renders per address (cached clips are free).
  if (!app.voice.cached(locale, number)) await rateLimit(app, limitKey(clientIp(req.headers)), app.throttles.voice);
  const clip = await app.voice.clip(locale, number);
  return new Response(Buffer.from(clip.wav), {
    status: 200,
    headers: {
      "Content-Type": "audio/wav",
      "Content-Length": String(clip.wav.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Voice-Cache": clip.cache,
      "Server-Timing": `render;dur=${clip.renderMs}`,
    },
  });
});
