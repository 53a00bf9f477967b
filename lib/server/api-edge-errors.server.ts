/**
 * Errors on /api paths that no route handler answers, in the error contract like the rest
 * of the API. Run by server.ts before Next.js: a method Next does not serve (TRACE even made
 * it throw: a 500) is refused here, and the empty errors Next answers itself get a body.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { AppError, ERROR_STATUS, toErrorBody, type ErrorCode } from "@/lib/core/errors";

/** The methods a Next.js route handler can serve. */
export const SERVED_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;

export const isApiPath = (url: string): boolean => /^\/api(?:[/?]|$)/.test(url);

export function sendError(res: ServerResponse, err: AppError): void {
  const { status, body } = toErrorBody(err);
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** True when the request was answered (the caller must not hand it on). */
export function refuseUnservedMethod(req: IncomingMessage, res: ServerResponse): boolean {
  const method = req.method ?? "";
  if (!isApiPath(req.url ?? "/") || (SERVED_METHODS as readonly string[]).includes(method)) return false;
  sendError(
    res,
    new AppError("METHOD_NOT_ALLOWED", { message: `Method ${method} on ${req.url}`, userMessage: `The API does not serve ${method.slice(0, 20)} requests.` }),
  );
  return true;
}

const CODE_OF_STATUS = new Map<number, ErrorCode>(Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]));

function bareMessage(code: ErrorCode, method: string): string {
  if (code === "METHOD_NOT_ALLOWED") return `This endpoint does not accept ${method} requests.`;
  if (code === "NOT_FOUND") return "No such API endpoint.";
  return STATUS_CODES[ERROR_STATUS[code]] ?? code;
}

/**
 * Next.js answers a method a route does not export with an empty 405 (headers flushed, then
 * nothing): an error status sent without a content type on an /api path gets the contract's
 * body. Caught at writeHead, which Node's implicit headers and flushHeaders go through too.
 */
export function fillBareErrors(req: IncomingMessage, res: ServerResponse): void {
  if (!isApiPath(req.url ?? "/")) return;
  let fill: string | null = null;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = (status: number, ...rest: unknown[]) => {
    const code = CODE_OF_STATUS.get(status);
    const typed =
      res.hasHeader("content-type") || rest.some((h) => typeof h === "object" && h !== null && Object.keys(h).some((k) => k.toLowerCase() === "content-type"));
    if (code && !typed) {
      const method = req.method ?? "";
      fill = JSON.stringify(
        toErrorBody(new AppError(code, { message: `Bare ${status} for ${method} ${req.url}`, userMessage: bareMessage(code, method) })).body,
      );
      res.setHeader("content-type", "application/json; charset=utf-8");
      res.removeHeader("content-length");
    }
    return writeHead(status, ...rest);
  };
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    const bodiless = args[0] == null || typeof args[0] === "function";
    return fill !== null && bodiless
      ? end(
          fill,
          args.find((a) => typeof a === "function"),
        )
      : end(...args);
  }) as ServerResponse["end"];
}
