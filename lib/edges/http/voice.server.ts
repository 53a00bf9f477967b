/**
 * The board's fallback voice over HTTP (decision 0008): the clip of a displayed number
 * ("12", or "K12" in a series with a prefix, decision 0027) a restaurant's open order holds. Renders are shared by every restaurant on a node, so only
 * numbers a board can call are rendered, one at a time per client address group (IPv6 by
 * its /64), within VOICE_RATE_LIMIT_PER_MINUTE; a cached clip is free (decision 0025).
 * Clips of numbers made ready or called again are rendered ahead and pinned, and asked
 * for they skip strangers' renders and limits (decision 0036).
 */
import { AppError } from "@/lib/core/errors";
import { displayNumber } from "@/lib/core/display-number";
import { asLocale, LOCALES, type Locale } from "@/lib/core/locales";
import type { Tenant } from "@/lib/core/tenants";
import type { App } from "@/lib/server/app.server";
import type { VoiceClip } from "@/lib/adapters/voice/voice.server";
import { limitKey, stampedClientAddress } from "@/lib/server/http/client-address.server";
import { api, rateLimit } from "./api.server";

/** Order numbers go up to this (the kitchen's typed-number limit). */
const MAX_NUMBER = 99_999_999;

export interface ClipRequest {
  locale: Locale;
  /** "" or a series' letters, as the board shows them. */
  prefix: string;
  number: number;
}

/**
 * `{locale}` and `{display}.wav` of the URL — `12.wav`, or `K12.wav` when `prefixes` (a
 * prefix is 1–3 capitals, as the board shows it, so each clip has one address); a 400 for
 * anything else.
 */
/** A clip's name: the number as the board shows it (`K12.wav`), or, on the deprecated route, the number alone (`42.wav`). */
export const CLIP_NAME = /^([A-Z]{0,3})(\d{1,8})\.wav$/;
export const CLIP_NUMBER_ONLY = /^()(\d{1,8})\.wav$/;

export function parseClip(params: { locale: string; clip: string }, { prefixes }: { prefixes: boolean }): ClipRequest {
  const locale = LOCALES.find((l) => l === params.locale) ?? null;
  if (!locale) {
    const hint = asLocale(params.locale) ? ` (spelled ${asLocale(params.locale)})` : "";
    throw new AppError("BAD_INPUT", { message: `Unknown language "${params.locale}"${hint}: use ${LOCALES.join(" or ")}` });
  }
  const m = (prefixes ? CLIP_NAME : CLIP_NUMBER_ONLY).exec(params.clip);
  const number = m ? Number(m[2]) : NaN;
  if (!Number.isSafeInteger(number) || number < 1 || number > MAX_NUMBER) {
    const form = prefixes ? "{number}.wav or {prefix}{number}.wav (prefix: 1 to 3 capital letters)" : "{number}.wav";
    throw new AppError("BAD_INPUT", { message: `"${params.clip}" is not ${form} with a number from 1 to ${MAX_NUMBER}` });
  }
  return { locale, prefix: m![1]!, number };
}

/** The renderer, or the 404 of a server running with VOICE_FALLBACK=off. */
export function voiceOf(app: App): NonNullable<App["voice"]> {
  if (!app.voice) throw new AppError("NOT_FOUND", { message: "The fallback voice is off on this server (VOICE_FALLBACK=off)" });
  return app.voice;
}

/**
 * The clip of a displayed number for `tenant`'s board: served from the cache whatever the
 * number (it costs nothing), else rendered only while an open order of `tenant` holds that
 * prefix and number.
 */
export async function tenantClip(app: App, req: Request, tenant: Tenant, { locale, prefix, number }: ClipRequest): Promise<Response> {
  const voice = voiceOf(app);
  // This restaurant's boards use the fallback voice: its called numbers are rendered ahead from now on.
  voice.boards.saw(tenant.id, locale);
  const cached = voice.cached(locale, { prefix, number });
  if (cached) return wavResponse(cached, "hit", 0);
  if (!(await app.orders.holds(tenant, number, prefix))) {
    const display = displayNumber(prefix, number);
    throw new AppError("NOT_FOUND", {
      message: `No open order of ${tenant.slug} has number ${display}: the voice says only numbers the board can call`,
      details: { number, prefix, display },
    });
  }
  const client = limitKey(stampedClientAddress(req.headers));
  const clip = await voice.clip(locale, { prefix, number }, { owner: client, admit: () => rateLimit(app, client, app.throttles.voice) });
  return wavResponse(clip.wav, clip.cache, clip.renderMs);
}

/** A clip of a number is the same audio for everyone and never changes: browsers and proxies keep it. */
export function wavResponse(wav: Uint8Array, cache: VoiceClip["cache"], renderMs: number): Response {
  return new Response(Buffer.from(wav), {
    status: 200,
    headers: {
      "Content-Type": "audio/wav",
      "Content-Length": String(wav.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Voice-Cache": cache,
      "Server-Timing": `render;dur=${renderMs}`,
    },
  });
}

/**
 * `api()` whose refusals are `no-store`: a 404 for a number no order holds today is no
 * answer for tomorrow, and a 429 or 503 is for this moment only (a 503 — strangers' renders
 * queued to the bound — says when to retry).
 */
export function voiceApi<P>(handler: Parameters<typeof api<P>>[1]): ReturnType<typeof api<P>> {
  const wrapped = api({}, handler);
  return async (req, ctx) => {
    const res = await wrapped(req, ctx);
    if (!res.ok) res.headers.set("Cache-Control", "no-store");
    if (res.status === 503 && !res.headers.has("Retry-After")) res.headers.set("Retry-After", "1");
    return res;
  };
}
