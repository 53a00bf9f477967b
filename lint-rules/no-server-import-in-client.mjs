/**
 * ESLint rule: a file marked "use client" imports no server module — no `*.server` file and
 * none of the server-only packages named in the options. Type-only imports are allowed
 * (erased before bundling). Why a rule and not the `server-only` package: decision 0017.
 */

/** @param {string} source */
function isServerModule(source) {
  return /\.server(\.[cm]?[jt]sx?)?$/.test(source);
}

/** @param {string} source @param {string[]} packages */
function isServerPackage(source, packages) {
  if (source.startsWith("node:")) return true;
  return packages.some((p) => source === p || source.startsWith(`${p}/`));
}

/** @type {import("eslint").Rule.RuleModule} */
const noServerImportInClient = {
  meta: {
    type: "problem",
    docs: { description: 'Keep server modules and server-only packages out of "use client" files' },
    schema: [{ type: "object", properties: { packages: { type: "array", items: { type: "string" } } }, additionalProperties: false }],
    messages: {
      serverModule: '"{{source}}" is a server module: a "use client" file may import only its types (import type).',
      serverPackage: '"{{source}}" runs on the server only: keep it out of "use client" files.',
    },
  },
  create(context) {
    const packages = context.options[0]?.packages ?? [];
    const body = context.sourceCode.ast.body;
    const isClient = body.some((s) => s.type === "ExpressionStatement" && s.directive === "use client");
    if (!isClient) return {};

    /** @param {any} node the import, export or import() node @param {any} sourceNode its string literal */
    function check(node, sourceNode) {
      if (!sourceNode || sourceNode.type !== "Literal" || typeof sourceNode.value !== "string") return;
      const typeOnly =
        node.importKind === "type" ||
        node.exportKind === "type" ||
        (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === "type" || s.exportKind === "type"));
      if (typeOnly) return;
      const source = sourceNode.value;
      if (isServerModule(source)) context.report({ node: sourceNode, messageId: "serverModule", data: { source } });
      else if (isServerPackage(source, packages)) context.report({ node: sourceNode, messageId: "serverPackage", data: { source } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default noServerImportInClient;
