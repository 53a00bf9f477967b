/**
 * A request whose path is not valid percent-encoded UTF-8 (`/%ff/board`) made Next.js throw
 * while decoding its route parameters: a 500. It is answered here with a 400, before Next.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError, toErrorBody } from "@/lib/core/errors";

/** True when the request was answered (the caller must not hand it on). */
export function refuseMalformedUrl(req: IncomingMessage, res: ServerResponse): boolean {
  const path = (req.url ?? "/").split("?")[0]!;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    const { status, body } = toErrorBody(new AppError("BAD_INPUT", { message: "Malformed URL", userMessage: "The address is not valid (bad percent-encoding)." }));
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
    return true;
  }
}
