/**
 * Holds an HTTP answer to the OpenAPI contract (lib/edges/http/openapi): its status must be
 * one the operation documents, its content type one of that response's, and a JSON body
 * must match that response's schema (Ajv, JSON Schema 2020-12, `$ref`s to the components
 * resolved). The operation is found as the server finds the route: the same matcher over
 * the app/ folder. Methods a path does not take are held to the error contract (405 …).
 */
import path from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { openApiDocument, type OpenApiDocument } from "@/lib/edges/http/openapi/document";
import { isApiRoute, routeMatcher, scanAppRoutes } from "@/lib/server/http/route-patterns.server";

// ajv-formats is CommonJS: its default export arrives wrapped under Node's ESM loader.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

export interface ObservedResponse {
  method: string;
  /** The request's URL, or its path (with or without a query). */
  url: string | URL;
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the raw text when it is not JSON ("" for none). */
  body: unknown;
  /** Whether `body` was parsed from JSON text. */
  parsedJson: boolean;
}

type Json = Record<string, unknown>;

/** Next's route pattern → the contract's path template: `[slug]` → `{slug}`, `[[...path]]` → `{path}`. */
export const templateOf = (route: string): string => route.replace(/\[\[?(?:\.\.\.)?([^\]]+)\]\]?/g, "{$1}");

const OPERATION_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** What the server answers, before or instead of a route, for a method a path does not take. */
const UNROUTED_STATUSES = new Set([400, 405, 408, 413, 431, 500, 503]);

const COMPONENTS_ID = "urn:nextup:openapi-components";

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly match = routeMatcher(scanAppRoutes(path.resolve("app")));

  constructor(private readonly doc: OpenApiDocument = openApiDocument()) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: this.refsRewritten(doc.components?.schemas ?? {}) });
  }

  /** A schema whose `#/components/schemas/X` refs point into the components schema registered above. */
  private refsRewritten<T>(schema: T): T {
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${COMPONENTS_ID}#/$defs/`)) as T;
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    let v = this.compiled.get(key);
    if (!v) {
      v = this.ajv.compile(this.refsRewritten(schema as Json));
      this.compiled.set(key, v);
    }
    return v;
  }

  private resolve<T>(obj: T | { $ref: string }): T {
    if (obj && typeof obj === "object" && "$ref" in obj && typeof obj.$ref === "string") {
      const name = obj.$ref.replace("#/components/responses/", "");
      return (this.doc.components?.responses as Record<string, T>)[name]!;
    }
    return obj as T;
  }

  /** What is wrong with `value` against `schema` (a schema of the document, `$ref`s allowed): [] when nothing. */
  schemaProblems(key: string, schema: unknown, value: unknown): string[] {
    const validate = this.validator(key, schema);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
  }

  /** Whether the contract covers `url`'s path: an API route, matched as the server matches it. */
  covers(url: string | URL): boolean {
    return isApiRoute(this.match(new URL(url, "http://contract.invalid").pathname));
  }

  /**
   * What is wrong with an answer on an API path, or null when it keeps the contract. Paths
   * that are not API routes (pages, sockets, files) are not in the contract: see covers().
   */
  problems(r: ObservedResponse): string | null {
    const url = new URL(r.url, "http://contract.invalid");
    const route = this.match(url.pathname);
    if (!isApiRoute(route)) throw new Error(`${url.pathname} is not an API path: the contract does not cover it`);
    const template = templateOf(route.route);
    // Methods are case-sensitive: `get` is not GET (the server answers it 405).
    const method = r.method;
    const shown = url.pathname.length > 120 ? `${url.pathname.slice(0, 120)}…` : url.pathname;
    const where = `${method} ${template} (${shown}) → ${r.status}`;
    const pathItem = (this.doc.paths as Record<string, Record<string, Json> | undefined>)[template];
    if (!pathItem) return `${where}: the route ${route.route} is not in the contract`;
    const name = method === "HEAD" ? "get" : OPERATION_METHODS.has(method) ? method.toLowerCase() : undefined;
    const op = (name ? pathItem[name] : undefined) as { responses: Record<string, Json> } | undefined;
    if (!op) return this.unrouted(r, method, where);
    const documented = op.responses[String(r.status)] ?? op.responses[`${String(r.status)[0]}XX`] ?? op.responses.default;
    if (!documented) return `${where}: status ${r.status} is not in the contract (documented: ${Object.keys(op.responses).join(", ")})`;
    const res = this.resolve(documented) as { content?: Record<string, { schema?: unknown }>; headers?: Record<string, Json> };
    const key = `${method === "HEAD" ? "GET" : method} ${template} ${r.status}`;
    return this.bodyProblems(r, res, key, where, method === "HEAD");
  }

  /** A method the path's route does not take: 204 with Allow for OPTIONS, else an error in the contract. */
  private unrouted(r: ObservedResponse, method: string, where: string): string | null {
    if (method === "OPTIONS" && r.status === 204) return r.headers.has("allow") ? null : `${where}: OPTIONS without Allow`;
    if (!UNROUTED_STATUSES.has(r.status))
      return `${where}: this path does not take ${method}, so only an error (${[...UNROUTED_STATUSES].join(", ")}) is in the contract`;
    // CONNECT is refused at the socket, before any route is matched (this server is no proxy): no Allow to give.
    if (r.status === 405 && method !== "CONNECT" && !r.headers.has("allow")) return `${where}: a 405 without Allow`;
    const error = { content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    return this.bodyProblems(r, error, "unrouted error", where, method === "HEAD");
  }

  private bodyProblems(
    r: ObservedResponse,
    res: { content?: Record<string, { schema?: unknown }>; headers?: Record<string, Json> },
    key: string,
    where: string,
    head: boolean,
  ): string | null {
    for (const [name, h] of Object.entries(res.headers ?? {})) {
      if (h.required === true && !r.headers.has(name)) return `${where}: required header ${name} is missing`;
    }
    const empty = r.body === "" || r.body === undefined;
    if (!res.content) return empty ? null : `${where}: the contract has no body for this status, the answer has one: ${preview(r.body)}`;
    if (head) return null;
    const type = (r.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const media = Object.keys(res.content);
    if (!media.includes(type)) return `${where}: content type "${type}" is not in the contract (${media.join(", ")}); body ${preview(r.body)}`;
    if (type !== "application/json") return null;
    if (!r.parsedJson) return `${where}: the body is not JSON: ${preview(r.body)}`;
    const validate = this.validator(`${key} ${type}`, res.content[type]!.schema ?? {});
    if (validate(r.body)) return null;
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message ?? ""}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
    return `${where}: the body does not match the contract:\n  ${errors.slice(0, 10).join("\n  ")}\nbody: ${preview(r.body)}`;
  }
}

const preview = (body: unknown): string => {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
};

let shared: ContractChecker | undefined;

/**
 * Throws, naming method, path template, status and what is wrong, when an answer on an API
 * path is outside the contract. Answers of pages, Socket.IO and files are not API answers:
 * the contract does not describe them, so they pass unchecked.
 */
export function expectInContract(r: ObservedResponse): void {
  const checker = (shared ??= new ContractChecker());
  if (!checker.covers(r.url)) return;
  const problem = checker.problems(r);
  if (problem) throw new Error(`Response outside the OpenAPI contract: ${problem}`);
}

/** A body's text as the checker takes it: parsed when it is JSON, else the text itself. */
export function observedBody(text: string): { body: unknown; parsedJson: boolean } {
  try {
    return text ? { body: JSON.parse(text), parsedJson: true } : { body: text, parsedJson: false };
  } catch {
    return { body: text, parsedJson: false };
  }
}

/** Whether a path belongs to the API the contract covers (anything else is a page, a socket, a file). */
export function isApiPath(url: string | URL): boolean {
  return (shared ??= new ContractChecker()).covers(url);
}
