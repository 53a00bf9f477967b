import { AppError } from "@/lib/core/errors";
import type { Tenant } from "@/lib/core/tenants";
import type { App } from "@/lib/server/app.server";
import { parseClip, tenantClip, voiceApi, voiceOf, wavResponse } from "@/lib/edges/http/voice.server";

/** `/{slug}/board…`: the board page an <audio> element asked from (Referrer-Policy same-origin sends it). */
const BOARD_PAGE = /^\/([^/]+)\/board\/?$/;

/**
 * Public, deprecated: `GET /api/v1/voice/{en|zh-CN}/{number}.wav`, which board pages loaded
 * before …/orgs/{slug}/voice/… existed still ask for. A cached clip is served; otherwise
 * the board page in `Referer` names the restaurant, and the number is rendered only while
 * one of its open orders holds it, as on the new route. Anything else is a 404.
 */
export const GET = voiceApi<{ locale: string; clip: string }>(async (req, { params, app }) => {
  // Numbers only: board pages that still ask here predate prefixes (decision 0027).
  const clip = parseClip(params, { prefixes: false });
  const voice = voiceOf(app);
  const cached = voice.cached(clip.locale, clip);
  if (cached) return wavResponse(cached, "hit", 0);
  const tenant = await boardOf(req, app);
  if (!tenant) {
    throw new AppError("NOT_FOUND", {
      message: `Clip ${clip.locale}/${clip.number} is not rendered here: use GET /api/v1/orgs/{slug}/voice/${clip.locale}/${clip.number}.wav (this route is deprecated)`,
    });
  }
  return tenantClip(app, req, tenant, clip);
});

/** The restaurant whose board page asked (its `Referer`), if any. */
async function boardOf(req: Request, app: App): Promise<Tenant | null> {
  const slug = boardSlug(req.headers.get("referer"));
  return slug ? app.tenants.find(slug) : null;
}

function boardSlug(referer: string | null): string | null {
  try {
    const slug = referer ? BOARD_PAGE.exec(new URL(referer).pathname)?.[1] : undefined;
    return slug ? decodeURIComponent(slug) : null;
  } catch {
    return null; // a Referer that does not parse names no board
  }
}
