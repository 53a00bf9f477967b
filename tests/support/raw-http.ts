/**
 * HTTP/1.1 over a bare TCP socket, for requests that fetch, undici or node:http would
 * refuse or normalize before sending (raw NUL bytes, broken request lines, bytes that are
 * not UTF-8 in a path or a header, an unknown method). The request goes out byte for byte
 * with `Connection: close`; the answer is read to the end and parsed leniently. And a GET
 * from a loopback address of the test's choosing (getFrom), for limits per client address.
 */
import { request } from "node:http";
import { connect } from "node:net";

export interface RawResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export type RawResult = { kind: "response"; response: RawResponse } | { kind: "closed"; raw: Buffer };

/** Strings here are byte strings: each character is one byte (latin1), sent as is. */
export interface RawRequest {
  method: string;
  /** The request-target exactly as sent (not encoded here). */
  target: string;
  /** Name and value pairs sent as given; Host, Connection and Content-Length are added unless present. */
  headers?: [string, string][];
  body?: string;
  /** Send the body in chunks (Transfer-Encoding: chunked) instead of with a Content-Length. */
  chunked?: boolean;
}

/** Builds the bytes of a request; `Connection: close` is always last among the added headers. */
export function requestBytes(req: RawRequest, host: string): Buffer {
  const bytes = (s: string) => Buffer.from(s, "latin1");
  const body = bytes(req.body ?? "");
  const headers = [...(req.headers ?? [])];
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (!has("host")) headers.unshift(["Host", host]);
  if (req.chunked) headers.push(["Transfer-Encoding", "chunked"]);
  else if (body.length > 0 || ["POST", "PUT", "PATCH"].includes(req.method)) headers.push(["Content-Length", String(body.length)]);
  headers.push(["Connection", "close"]);
  const head = bytes(`${req.method} ${req.target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`);
  if (!req.chunked) return Buffer.concat([head, body]);
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += 1000) {
    const part = body.subarray(i, i + 1000);
    chunks.push(bytes(`${part.length.toString(16)}\r\n`), part, bytes("\r\n"));
  }
  return Buffer.concat([head, ...chunks, bytes("0\r\n\r\n")]);
}

/** Sends `bytes` to 127.0.0.1:`port` and resolves with the parsed answer, or `closed` when none came. */
export function rawHttp(port: number, bytes: Buffer, timeoutMs = 20_000): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    const got: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms; got ${Buffer.concat(got).toString("latin1").slice(0, 300)}`));
    }, timeoutMs);
    socket.on("data", (d: Buffer) => got.push(d));
    // The server may close while we are still writing (it answered early): read what came.
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      const raw = Buffer.concat(got);
      const response = parseResponse(raw);
      resolve(response ? { kind: "response", response } : { kind: "closed", raw });
    });
    // No half-close: Node's server drops a request whose client ended its side early.
    socket.write(bytes);
  });
}

/** The final (non-1xx) response in `raw`, or null when there is none. */
export function parseResponse(raw: Buffer): RawResponse | null {
  let rest = raw;
  for (;;) {
    const end = rest.indexOf("\r\n\r\n");
    if (end === -1) return null;
    const lines = rest.subarray(0, end).toString("latin1").split("\r\n");
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "");
    if (!m) return null;
    const status = Number(m[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const i = line.indexOf(":");
      if (i <= 0) continue;
      const name = line.slice(0, i).trim().toLowerCase();
      const value = line.slice(i + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    rest = rest.subarray(end + 4);
    if (status >= 100 && status < 200) continue;
    let body = rest;
    if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(rest);
    else if (headers["content-length"] !== undefined) body = rest.subarray(0, Number(headers["content-length"]));
    return { status, headers, body };
  }
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf("\r\n", at);
    if (eol === -1) break;
    const size = parseInt(data.subarray(at, eol).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** A byte string as the UTF-8 bytes of `s` (how a client sends text it encodes). */
export const utf8Bytes = (s: string): string => Buffer.from(s, "utf8").toString("latin1");

/** One line naming a request, control and non-ASCII bytes escaped, long runs and values cut. */
export function describeRequest(req: RawRequest, version = "HTTP/1.1"): string {
  const show = (v: string, max: number) => {
    const escaped = JSON.stringify(v)
      .slice(1, -1)
      .replace(/(.)\1{40,}/g, (run, c: string) => `${c}…×${run.length}`);
    return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
  };
  const headers = (req.headers ?? []).map(([n, v]) => ` [${show(n, 40)}: ${show(v, 100)}]`).join("");
  const body = req.body ? ` body(${req.body.length} bytes${req.chunked ? ", chunked" : ""}): ${show(req.body, 200)}` : "";
  return `${show(req.method, 40)} ${show(req.target, 300)} ${show(version, 40)}${headers}${body}`;
}

/** An answer read whole by getFrom(). */
export interface LoopbackAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * GET `path` on 127.0.0.1:`port` from the client at `from` (a loopback address of its own, so
 * the server counts it as another client), on a connection of its own.
 */
export function getFrom(port: number, from: string, path: string, headers: Record<string, string> = {}): Promise<LoopbackAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, localAddress: from, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
