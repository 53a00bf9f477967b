/**
 * Request bodies of the API: at most MAX_BODY_BYTES, read whole before a handler runs.
 */
import type { IncomingMessage } from "node:http";
import { AppError } from "@/lib/core/errors";

/** The largest request body the API reads. */
export const MAX_BODY_BYTES = 16 * 1024;

/** How much of a too-large body (without Content-Length) is read and dropped before answering. */
const DISCARD_AT_MOST = 1024 * 1024;

export const tooLarge = (): AppError =>
  new AppError("PAYLOAD_TOO_LARGE", { message: "Body too large", userMessage: `The request body exceeds ${MAX_BODY_BYTES / 1024} KiB.` });

/**
 * The whole body, read before the handler runs: a request whose connection ends before its
 * body does is never handled (no order from half a body), and the handler reads a Buffer.
 * Undefined: the client went away.
 */
export function readBody(req: IncomingMessage): Promise<Buffer | AppError | undefined> {
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return Promise.resolve(tooLarge());
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      // Too large: the rest is read and dropped, so the client gets to read the 413 —
      // unless it goes on and on, then the answer closes the connection.
      else if (size > DISCARD_AT_MOST) resolve(tooLarge());
    });
    req.once("end", () => resolve(size > MAX_BODY_BYTES ? tooLarge() : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once("close", () => req.complete || resolve(undefined));
    req.once("error", () => resolve(undefined));
  });
}
