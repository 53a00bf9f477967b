/**
 * Request targets Next.js cannot take, dealt with before it: a path that is not valid
 * percent-encoded UTF-8 (`/%ff/board`) and the target `*` made it throw (500s); an absolute
 * URL (`GET http://evil.example/x`, as sent to a proxy) made it redirect to the host it names.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError } from "@/lib/core/errors";
import { sendError, SERVED_METHODS } from "./api-edge-errors.server";

const malformed = (what: string) => new AppError("BAD_INPUT", { message: `Malformed URL: ${what}`, userMessage: "The address is not valid." });

/**
 * An absolute-form target (RFC 9112 §3.2.2, `GET http://host/x` as sent to a proxy) becomes
 * its path and query, before anything routes the request: its host is not ours to follow.
 * Anything else is left to refuseMalformedUrl.
 */
export function toOriginForm(req: IncomingMessage): void {
  const url = req.url ?? "/";
  if (url.startsWith("/") || url === "*") return;
  const absolute = parsedUrl(url);
  if (absolute?.protocol === "http:" || absolute?.protocol === "https:") req.url = `${absolute.pathname}${absolute.search}`;
}

/** A URL, or null: one parse that cannot throw (URL.canParse then new URL threw on a fuzzed Host: seed 7). */
export function parsedUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** True when the request was answered (the caller must not hand it on). Run after toOriginForm. */
export function refuseMalformedUrl(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? "/";
  if (url === "*") {
    // `OPTIONS *` asks what the server supports at all; `*` means nothing to any other method.
    if (req.method === "OPTIONS") res.writeHead(204, { allow: SERVED_METHODS.join(", ") }).end();
    else sendError(res, malformed("target * with a method other than OPTIONS"));
    return true;
  }
  if (!url.startsWith("/")) {
    sendError(res, malformed("not a path or an http(s) URL"));
    return true;
  }
  try {
    decodeURIComponent(url.split("?")[0]!);
    return false;
  } catch {
    sendError(
      res,
      new AppError("BAD_INPUT", { message: "Malformed URL: bad percent-encoding", userMessage: "The address is not valid (bad percent-encoding)." }),
    );
    return true;
  }
}
