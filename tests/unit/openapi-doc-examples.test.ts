/**
 * The JSON examples of docs/api.md agree with the OpenAPI contract. Every ```json block
 * follows a marker saying what it shows, checked against that schema of the document:
 *
 *   <!-- openapi: POST /api/v1/orgs/{slug}/orders request -->   the operation's request body
 *   <!-- openapi: POST /api/v1/orgs/{slug}/orders 201 -->       its answer with that status
 *   <!-- openapi: schema Series -->                             a component schema
 *   <!-- openapi: webhook order.ready -->                       a webhook's payload
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/edges/http/openapi/document";
import { ContractChecker } from "../support/openapi-contract";

const doc = openApiDocument();
const checker = new ContractChecker(doc);

interface Example {
  line: number;
  marker: string;
  text: string;
}

function examples(markdown: string): { marked: Example[]; unmarked: number[] } {
  const lines = markdown.split("\n");
  const marked: Example[] = [];
  const unmarked: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "```json") continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === "```");
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === "") k--;
    const marker = /^<!-- openapi: (.+) -->$/.exec(lines[k]?.trim() ?? "")?.[1];
    if (marker) marked.push({ line: i + 1, marker, text: lines.slice(i + 1, end).join("\n") });
    else unmarked.push(i + 1);
    i = end;
  }
  return { marked, unmarked };
}

type Operation = {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
};

/** The schema a marker names, or why there is none. */
function schemaOf(marker: string): unknown {
  const schema = /^schema (\w+)$/.exec(marker);
  if (schema) return doc.components?.schemas?.[schema[1]!] ? { $ref: `#/components/schemas/${schema[1]}` } : undefined;
  const webhook = /^webhook (\S+)$/.exec(marker);
  if (webhook) return (doc.webhooks?.[webhook[1]!]?.post as Operation | undefined)?.requestBody?.content["application/json"]?.schema;
  const [, method, path, what] = /^(GET|POST|PUT|PATCH|DELETE) (\S+) (request|\d{3})$/.exec(marker) ?? [];
  const op = (doc.paths?.[path ?? ""] as Record<string, Operation> | undefined)?.[method?.toLowerCase() ?? ""];
  if (!op) return undefined;
  if (what === "request") return op.requestBody?.content["application/json"]?.schema;
  let res = op.responses[what!];
  if (res?.$ref) res = (doc.components?.responses as Record<string, typeof res>)[res.$ref.split("/").pop()!];
  return res?.content?.["application/json"]?.schema;
}

const markdown = readFileSync("docs/api.md", "utf8");
const { marked, unmarked } = examples(markdown);

describe("docs/api.md's JSON examples", () => {
  it("each say what they show", () => {
    expect(unmarked, "```json blocks without an <!-- openapi: … --> marker (lines)").toEqual([]);
    expect(marked.length).toBeGreaterThanOrEqual(15);
  });

  it.each(marked.map((e) => [`${e.marker} (line ${e.line})`, e] as const))("%s matches the contract", (_name, e) => {
    const schema = schemaOf(e.marker);
    expect(schema, `the document has no schema for "${e.marker}"`).toBeDefined();
    let value: unknown;
    expect(() => (value = JSON.parse(e.text)), `line ${e.line} is not JSON`).not.toThrow();
    expect(checker.schemaProblems(e.marker, schema, value)).toEqual([]);
  });

  it("would catch an example that breaks its schema", () => {
    const order = marked.find((e) => e.marker === "POST /api/v1/orgs/{slug}/orders 201")!;
    const wrong = { ...(JSON.parse(order.text) as object), status: "SERVED" };
    expect(checker.schemaProblems(order.marker, schemaOf(order.marker), wrong).join()).toContain("/status must be equal to one of the allowed values");
  });
});

describe("docs/api.md and README", () => {
  it("link the contract", () => {
    expect(markdown.slice(0, 1500)).toContain("/api/v1/openapi.json");
    expect(readFileSync("README.md", "utf8")).toContain("/api/v1/openapi.json");
  });
});
