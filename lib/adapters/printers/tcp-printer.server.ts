/**
 * Talking to an ESC/POS network printer over raw TCP (port 9100): the host is resolved once
 * and every address checked against PRINTER_NETWORKS/PRINTER_PORTS, then the socket goes to
 * that checked address (no second lookup a DNS rebinding could answer differently). Status
 * is read with DLE EOT on its own connection; a ticket is written and the socket ended.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import net from "node:net";
import { printerDestination, type PrinterNetworkPolicy, type PrinterRefusalCode } from "@/lib/core/printing/printer-network";
import { STATUS_OFFLINE_CAUSE, STATUS_PAPER, STATUS_PRINTER, type StatusReplies } from "@/lib/core/printing/printer-status";

export interface PrinterTarget {
  host: string;
  port: number;
}

export type PrinterErrorKind = "offline" | "refused" | "unresolved";

/** An expected failure to reach a printer; `message` is the detail (the operator's, or a manager's with PRINTER_ERRORS=detailed). */
export class PrinterError extends Error {
  constructor(
    readonly kind: PrinterErrorKind,
    message: string,
    /** Why the address was refused, for a "refused" or "unresolved" error. */
    readonly refusal?: PrinterRefusalCode,
  ) {
    super(message);
    this.name = "PrinterError";
  }
}

export const DEFAULT_LOOKUP_TIMEOUT_MS = 2_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;
export const DEFAULT_REPLY_TIMEOUT_MS = 800;
export const DEFAULT_WRITE_TIMEOUT_MS = 7_000;

/**
 * The longest a drain's step can wait on the printer: one lookup, a status connection and
 * its three replies, a ticket's connection and write. It must stay inside the printer's
 * hold (PRINT_HOLD_SECONDS, with room for the step's database writes).
 */
export const PRINTER_STEP_MAX_MS = DEFAULT_LOOKUP_TIMEOUT_MS + 2 * DEFAULT_CONNECT_TIMEOUT_MS + 3 * DEFAULT_REPLY_TIMEOUT_MS + DEFAULT_WRITE_TIMEOUT_MS;
/** How long a printer may keep its side open after a ticket before the socket is destroyed. */
const CLOSE_GRACE_MS = 2_000;

/** Every address of `host` (A and AAAA), as the operating system resolves it. */
export const resolvePrinterHost = async (host: string): Promise<string[]> => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * `resolve(host)`, failing after `timeoutMs` (printerDestination then says the host does not
 * resolve): getaddrinfo takes no signal, and a lookup must not outlast a drain's hold.
 */
export function boundedLookup(resolve: (host: string) => Promise<string[]>, timeoutMs: number): (host: string) => Promise<string[]> {
  return (host) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer looking up ${host} within ${seconds(timeoutMs)}`)), timeoutMs);
    });
    return Promise.race([resolve(host), late]).finally(() => clearTimeout(timer));
  };
}

/**
 * The one checked address of `t` (printerDestination: resolved once, every address allowed),
 * the lookup bounded by `lookupTimeoutMs`. Throws PrinterError "refused" or "unresolved".
 */
export async function resolvePrinter(
  t: PrinterTarget,
  policy: PrinterNetworkPolicy,
  resolve: (host: string) => Promise<string[]> = resolvePrinterHost,
  lookupTimeoutMs = DEFAULT_LOOKUP_TIMEOUT_MS,
): Promise<string> {
  const found = await printerDestination(t, policy, boundedLookup(resolve, lookupTimeoutMs));
  if ("refusal" in found) throw new PrinterError(found.kind, found.refusal, found.code);
  return found.address;
}

function networkError(e: NodeJS.ErrnoException, timeoutMs: number): PrinterError {
  switch (e.code) {
    case "ECONNREFUSED":
      return new PrinterError("offline", "connection refused (is the printer on?)");
    case "ECONNRESET":
    case "EPIPE":
      return new PrinterError("offline", "the printer closed the connection");
    case "ETIMEDOUT":
      return new PrinterError("offline", `no answer within ${seconds(timeoutMs)}`);
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "EHOSTDOWN":
      return new PrinterError("offline", "the printer's address cannot be reached");
    default:
      return new PrinterError("offline", (e.code ? `${e.code}: ` : "") + e.message.slice(0, 200));
  }
}

/** A connected socket to `address:port`, or PrinterError "offline" (refused, unreachable, no answer within `timeoutMs`). */
function connect(address: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port, noDelay: true });
    const fail = (e: PrinterError) => {
      clearTimeout(timer);
      socket.destroy();
      reject(e);
    };
    const onError = (e: NodeJS.ErrnoException) => fail(networkError(e, timeoutMs));
    const timer = setTimeout(() => fail(new PrinterError("offline", `no answer within ${seconds(timeoutMs)}`)), timeoutMs);
    socket.once("error", onError);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeListener("error", onError);
      resolve(socket);
    });
  });
}

/**
 * Connects, sends DLE EOT 1, 2 and 4 one after the other reading one byte each (a reply not
 * there within `replyTimeoutMs` is undefined: many network adapters never answer), closes.
 * Refused, timed out or reset → PrinterError "offline".
 */
export async function queryStatus(address: string, port: number, opts: { connectTimeoutMs?: number; replyTimeoutMs?: number } = {}): Promise<StatusReplies> {
  const connectTimeout = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const replyTimeout = opts.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS;
  const socket = await connect(address, port, connectTimeout);
  const received: number[] = [];
  let wake: (() => void) | null = null;
  let failure: PrinterError | null = null;
  let closed = false;
  socket.on("data", (chunk: Buffer) => {
    received.push(...chunk);
    wake?.();
  });
  socket.on("error", (e: NodeJS.ErrnoException) => {
    failure = networkError(e, connectTimeout);
    wake?.();
  });
  socket.on("close", () => {
    closed = true;
    wake?.();
  });

  /** Sends one request and waits for its byte; late bytes of an earlier request are dropped first. */
  const ask = async (request: Uint8Array): Promise<number | undefined> => {
    received.length = 0;
    if (closed) return undefined;
    socket.write(request);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, replyTimeout);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = () => {
        if (received.length > 0 || failure || closed) done();
      };
    });
    if (failure) throw failure;
    return received.shift();
  };
  try {
    const printer = await ask(STATUS_PRINTER);
    const offline = await ask(STATUS_OFFLINE_CAUSE);
    const paper = await ask(STATUS_PAPER);
    return { printer, offline, paper };
  } finally {
    socket.destroy();
  }
}

/**
 * Connects, writes `bytes`, waits until they are flushed to the network and ends the socket
 * (querying status afterwards, on a new connection, is the caller's job). Refused, timed out
 * or reset before every byte was written → PrinterError "offline".
 */
export async function sendToPrinter(address: string, port: number, bytes: Buffer, opts: { timeoutMs?: number; connectTimeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  const socket = await connect(address, port, Math.min(opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, timeoutMs));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new PrinterError("offline", `the printer did not take the ticket within ${seconds(timeoutMs)}`));
    }, timeoutMs);
    socket.once("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      socket.destroy();
      reject(networkError(e, timeoutMs));
    });
    socket.end(bytes, (e?: Error | null) => {
      clearTimeout(timer);
      if (e) reject(networkError(e, timeoutMs));
      else resolve();
    });
  });
  // Read whatever the printer says (automatic status) so closing does not reset the connection, and give it time to close its side.
  socket.on("error", () => {});
  socket.resume();
  const grace = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
  grace.unref();
  socket.once("close", () => clearTimeout(grace));
}
