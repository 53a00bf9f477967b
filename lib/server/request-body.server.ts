/**
 * Request bodies of the API: at most MAX_BODY_BYTES, read whole before a handler runs.
 */
import type { IncomingMessage } from "node:http";
import { AppError } from "@/lib/core/errors";

/** The largest request body the API reads. */
export const MAX_BODY_BYTES = 16 * 1024;

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
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off("data", onData);
      req.resume(); // discard the rest; the answer closes the connection
      resolve(tooLarge());
    };
    req.on("data", onData);
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once("close", () => req.complete || resolve(undefined));
    req.once("error", () => resolve(undefined));
  });
}
