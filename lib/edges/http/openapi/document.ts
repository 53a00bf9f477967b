/**
 * The OpenAPI 3.1 contract of the REST API, generated from the zod schemas the handlers
 * validate requests with and the response schemas the *Json builders return (decision
 * 0030). Served at GET /api/v1/openapi.json; tests hold every answer to it.
 */
import { z } from "zod";
import { createDocument, type ZodOpenApiPathsObject } from "zod-openapi";
import { ERROR_RESPONSES } from "./errors";
import { operation, SECURITY_SCHEMES, type Method } from "./operation";
import { orderPaths } from "./paths/orders";
import { publicPaths } from "./paths/public";
import { pushPaths } from "./paths/push";
import { consolePaths } from "./paths/console";
import { menuPaths } from "./paths/menu";
import { setupPaths } from "./paths/setup";
import { stationPaths } from "./paths/stations";
import { webhookEvents } from "./webhooks";

/** `app/api/[[...path]]/route.ts`: any /api path no other route serves is a 404 in the error contract. */
const CATCH_ALL_METHODS: Method[] = ["get", "post", "put", "patch", "delete"];
const catchAll: ZodOpenApiPathsObject = {
  "/api/{path}": Object.fromEntries(
    CATCH_ALL_METHODS.map((m) => [
      m,
      operation(m, {
        operationId: `unknownPath${m[0]!.toUpperCase()}${m.slice(1)}`,
        tag: "Operations",
        summary: "Any other /api path",
        description: "`{path}` stands for one or more segments no route above serves: always 404 in the error contract.",
        access: "anyone",
        path: z.object({ path: z.string().meta({ description: "The rest of the path (may hold `/`)." }) }),
        ok: {},
        errors: [404],
      }),
    ]),
  ),
};

const DESCRIPTION = `For POS systems, delivery platforms and anything else that takes or follows orders. The prose reference, with examples, is docs/api.md.

**Errors**: every error under /api is \`{"error":{"code","message","details?"}}\`; each operation lists the statuses it can answer. A method a path does not take is 405 (\`MethodNotAllowed\`, with \`Allow\`); \`OPTIONS\` is 204 with \`Allow\`; \`HEAD\` is \`GET\` without a body.

**Keys**: \`Authorization: Bearer <API key>\`; a key has one role (MANAGER, CASHIER, KITCHEN) and a manager's key may do everything. Each operation's security requirement lists the roles it takes.

**Every answer** carries \`X-Request-Id\`.`;

function build() {
  return createDocument({
    openapi: "3.1.0",
    info: { title: "Nextup REST API", version: "1", description: DESCRIPTION, license: { name: "MIT", identifier: "MIT" } },
    servers: [{ url: "/", description: "The server that serves this document." }],
    tags: [
      { name: "Orders" },
      { name: "Shifts" },
      { name: "Board" },
      { name: "Menu" },
      { name: "Series" },
      { name: "Stations" },
      { name: "Printers" },
      { name: "Webhooks" },
      { name: "Reports" },
      { name: "Settings" },
      { name: "Access" },
      { name: "Operations" },
    ],
    paths: { ...orderPaths, ...publicPaths, ...pushPaths, ...consolePaths, ...menuPaths, ...setupPaths, ...stationPaths, ...catchAll },
    webhooks: webhookEvents,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      // Answered for a path's methods no route takes: in the contract, though no operation has it.
      responses: { MethodNotAllowed: ERROR_RESPONSES[405] },
    },
  });
}

export type OpenApiDocument = ReturnType<typeof build>;

let built: { document: OpenApiDocument; text: string } | undefined;
const once = () =>
  (built ??= (() => {
    const document = build();
    return { document, text: JSON.stringify(document) };
  })());

/** The document, built once per process. */
export const openApiDocument = (): OpenApiDocument => once().document;

/** The document as served (JSON text), serialized once. */
export const openApiJson = (): string => once().text;
