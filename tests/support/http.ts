/**
 * A tiny client for the REST API of a running app server (real HTTP, real fetch), and
 * the assertions every test of the error contract needs.
 */
import { expect } from "vitest";
import { expectInContract, observedBody } from "./openapi-contract";

/** The public JSON form of an order (lib/edges/http/api.server.ts `orderJson`). */
export interface OrderJson {
  id: string;
  number: number;
  /** The series it was numbered in, its prefix, and what screens show ("K12"; decision 0027). */
  series: string;
  prefix: string;
  display: string;
  businessDay: string;
  shift: number;
  status: "PLACED" | "READY" | "COLLECTED" | "CANCELLED";
  items: { name: string; qty: number; menuItemId?: string; priceCents?: number; stationId?: string }[];
  note: string | null;
  channel: string;
  createdAt: string;
  readyAt: string | null;
  collectedAt: string | null;
  cancelledAt: string | null;
  cleared: boolean;
  clearedAt: string | null;
  trackPath: string;
  /** One part per kitchen station with lines of it (issue #40); [] without stations. */
  stations: { id: string; name: string; done: boolean; doneAt: string | null }[];
}

export interface OrderListJson {
  businessDay: string;
  shift: number;
  orders: OrderJson[];
}

export interface BoardOrderJson {
  key: string;
  number: number;
  status: OrderJson["status"];
  businessDay: string;
  shift: number;
  createdAt: string;
  readyAt: string | null;
  cleared: boolean;
}

export interface BoardJson {
  businessDay: string;
  shift: number;
  readyClearMinutes: number;
  preparing: BoardOrderJson[];
  ready: BoardOrderJson[];
}

export interface ShiftJson {
  businessDay: string;
  shift: number;
  firstNumber: number;
  startedAt: string;
  startedBy: string;
  reason: string | null;
  created: boolean;
  cleared: number;
}

export interface ErrorJson {
  error: { code: string; message: string; details?: unknown };
}

export interface ApiResult<T> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the raw text when the body is not JSON (so a failure shows it). */
  body: T;
}

export interface CallOptions {
  /** API key, sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Serialized as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** A raw body (string, bytes or stream); set the content type yourself via `headers`. */
  body?: BodyInit;
  headers?: Record<string, string>;
}

export type Api = <T = unknown>(method: string, path: string, opts?: CallOptions) => Promise<ApiResult<T>>;

/**
 * A client for `baseUrl`; paths are relative to it (e.g. `/api/v1/orgs/alpha/orders`).
 * Every answer on an API path is held to the OpenAPI contract (status, content type, body):
 * one outside it fails the test. Pages and other non-API paths are not in the contract.
 */
export function apiClient(baseUrl: string): Api {
  return async <T>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResult<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
    let body: BodyInit | undefined = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] ??= "application/json";
    }
    const init: RequestInit & { duplex?: "half" } = { method, headers, body };
    if (body instanceof ReadableStream) init.duplex = "half";
    const res = await fetch(new URL(path, baseUrl), init);
    const { body: parsed, parsedJson } = observedBody(await res.text());
    expectInContract({ method, url: new URL(path, baseUrl), status: res.status, headers: res.headers, body: parsed, parsedJson });
    return { status: res.status, headers: res.headers, body: parsed as T };
  };
}

/** Asserts status and the error contract `{"error":{"code","message"}}` with `code`. */
export function expectApiError(res: ApiResult<unknown>, status: number, code: string): ErrorJson["error"] {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: { code } } });
  const body = res.body as ErrorJson;
  expect(Object.keys(body)).toEqual(["error"]);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.message.trim().length).toBeGreaterThan(0);
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/);
  return body.error;
}

/** Asserts a success status, showing the body when it is not. */
export function expectStatus<T>(res: ApiResult<T>, status: number): T {
  expect({ status: res.status, body: res.body }).toMatchObject({ status });
  return res.body;
}

export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const BUSINESS_DAY = /^\d{4}-\d{2}-\d{2}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A manager-only endpoint refuses everyone else: no key or an unknown one 401, a cashier's
 * or kitchen key 403, another restaurant's manager key 403.
 */
export async function expectManagerOnly(
  call: Api,
  method: string,
  path: string,
  json: unknown,
  keys: { cashier: string; kitchen: string; otherManager: string },
): Promise<void> {
  expectApiError(await call(method, path, { json }), 401, "UNAUTHENTICATED");
  expectApiError(await call(method, path, { json, key: "nxu_mgr_00000000_notarealkeynotarealkey00" }), 401, "UNAUTHENTICATED");
  expectApiError(await call(method, path, { json, key: keys.cashier }), 403, "FORBIDDEN");
  expectApiError(await call(method, path, { json, key: keys.kitchen }), 403, "FORBIDDEN");
  expectApiError(await call(method, path, { json, key: keys.otherManager }), 403, "FORBIDDEN");
}

/**
 * `fetch` whose answer is held to the OpenAPI contract like apiClient's (API paths only),
 * for tests that need the raw Response. The body is read from a clone.
 */
export async function contractFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(input, init);
  const text = await res.clone().text();
  const { body, parsedJson } = (res.headers.get("content-type") ?? "").includes("json") ? observedBody(text) : { body: text, parsedJson: false };
  expectInContract({ method: init.method ?? "GET", url: input, status: res.status, headers: res.headers, body, parsedJson });
  return res;
}
