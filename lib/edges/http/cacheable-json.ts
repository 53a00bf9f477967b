/**
 * A JSON document that does not change while the process runs (the OpenAPI contract), served
 * cheaply: its ETag and its br/gzip forms are made once, an `If-None-Match` naming it is
 * answered 304, and caches may keep it (decision 0042).
 */
import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

type Encoding = "br" | "gzip" | "identity";

/** The codings `accept` (an Accept-Encoding value) allows, by preference: br, then gzip; `identity` always. */
export function chooseEncoding(accept: string | null): Encoding {
  const q = new Map<string, number>();
  for (const part of (accept ?? "").toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (!name) continue;
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    q.set(name.trim(), weight === undefined ? 1 : Number(weight));
  }
  const allowed = (coding: string) => (q.get(coding) ?? q.get("*") ?? 0) > 0;
  if (allowed("br")) return "br";
  if (allowed("gzip")) return "gzip";
  return "identity";
}

/** Whether `ifNoneMatch` (an If-None-Match value) names `etag`, weakly compared as RFC 9110 asks for GET. */
export function namesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => t.trim() === "*" || bare(t) === bare(etag));
}

/** `text`'s answer to a request, every form of it computed on first use. */
export function cacheableJson(text: () => string, cacheControl: string): (req: Request) => Response {
  let forms: { etag: string; bodies: Record<Encoding, Buffer<ArrayBuffer>> } | null = null;
  const formsOf = () => {
    if (forms) return forms;
    const raw = Buffer.from(text());
    forms = {
      etag: `"${createHash("sha256").update(raw).digest("base64url").slice(0, 27)}"`,
      bodies: {
        identity: raw,
        gzip: gzipSync(raw, { level: 9 }),
        br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
      },
    };
    return forms;
  };
  return (req) => {
    const { etag, bodies } = formsOf();
    // The body depends on Accept-Encoding: a shared cache must keep one per coding.
    const common = { ETag: etag, "Cache-Control": cacheControl, Vary: "Accept-Encoding" };
    if (namesEtag(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: common });
    const encoding = chooseEncoding(req.headers.get("accept-encoding"));
    const headers: Record<string, string> = { ...common, "content-type": "application/json" };
    if (encoding !== "identity") headers["Content-Encoding"] = encoding;
    return new Response(bodies[encoding], { status: 200, headers });
  };
}
