/**
 * Requests refused by Node's HTTP parser before any handler runs (a NUL or a space in the
 * path, a broken header, headers over the size limit), CONNECT and unknown `Expect` values.
 * Node answered them with an empty body, or CONNECT not at all: they get the error contract.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { AppError, toErrorBody } from "@/lib/core/errors";
import { API_POLICY } from "./security-headers.server";

function answerRaw(socket: Duplex, err: AppError): void {
  const { status, body } = toErrorBody(err);
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
      // The parser answers before any route: the JSON answers' own headers (security-headers.server.ts).
      `Content-Security-Policy: ${API_POLICY}\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nConnection: close\r\n\r\n${text}`,
  );
}

function parseError(code: string | undefined): AppError {
  if (code === "HPE_HEADER_OVERFLOW")
    return new AppError("HEADERS_TOO_LARGE", { message: "Request headers too large", userMessage: "The request's headers are too large." });
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return new AppError("REQUEST_TIMEOUT", { message: "Request not received in time", userMessage: "The request took too long to arrive." });
  return new AppError("BAD_INPUT", { message: `Malformed HTTP request (${code})`, userMessage: "The request is not valid HTTP." });
}

/** `serve` handles a request whose unknown `Expect` Node would refuse: it is served as if it had none. */
export function answerProtocolErrors(http: Server, serve: (req: IncomingMessage, res: ServerResponse) => void): void {
  http.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Gone, or a response already under way: nothing more can be said (Node's own check).
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (err.code === "ECONNRESET" || !socket.writable || inFlight) {
      socket.destroy();
      return;
    }
    answerRaw(socket, parseError(err.code));
  });
  http.on("connect", (_req: IncomingMessage, socket: Duplex) => {
    answerRaw(socket, new AppError("METHOD_NOT_ALLOWED", { message: "CONNECT", userMessage: "This server is not a proxy: CONNECT is not served." }));
  });
  http.on("checkExpectation", serve);
}
