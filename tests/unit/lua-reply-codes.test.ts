/**
 * The Lua scripts' reply codes have one definition (lib/adapters/redis/lua/reply-codes.ts):
 * the scripts as loaded carry the same tables, name only codes that exist, and return no
 * bare numbers. The scripts themselves run on Redis in tests/integration/counter*.test.ts.
 */
import { describe, expect, it } from "vitest";
import { scriptFiles } from "@/lib/adapters/redis/scripts.server";
import { Flag, IssueReply, REPLY_TABLES, replyCodesLua } from "@/lib/adapters/redis/lua/reply-codes";

/** The tables a Lua text defines with `local Name = { KEY = n, … }`. */
function luaTables(lua: string): Record<string, Record<string, number>> {
  const tables: Record<string, Record<string, number>> = {};
  for (const [, name, body] of lua.matchAll(/^local (\w+) = \{ (.*) \}$/gm)) {
    tables[name!] = Object.fromEntries([...body!.matchAll(/(\w+) = (-?\d+)/g)].map(([, key, value]) => [key!, Number(value)]));
  }
  return tables;
}

const scripts = scriptFiles();

describe("Lua reply codes", () => {
  it("the generated include defines each TypeScript table with the same keys and values", () => {
    expect(luaTables(replyCodesLua())).toEqual({ IssueReply: { ...IssueReply }, Flag: { ...Flag } });
  });

  it("codes are distinct within a table (a reader could not tell two apart otherwise)", () => {
    for (const codes of Object.values(REPLY_TABLES)) expect(new Set(Object.values(codes)).size).toBe(Object.keys(codes).length);
  });

  it("every script is loaded with the tables, and names only codes that exist", () => {
    expect(scripts.map((s) => s.command).sort()).toEqual(["burnBlock", "extendLock", "installBlock", "issueNumbers", "releaseLock"]);
    for (const s of scripts) {
      expect(luaTables(s.lua), s.command).toMatchObject({ IssueReply: { ...IssueReply }, Flag: { ...Flag } });
      // A misspelt code is nil in Lua: it would end the reply array early, silently.
      for (const [, table, key] of s.lua.matchAll(/\b(IssueReply|Flag)\.(\w+)/g)) {
        expect(Object.keys(REPLY_TABLES[table as keyof typeof REPLY_TABLES]), `${s.command}: ${table}.${key}`).toContain(key);
      }
    }
  });

  it("no script replies with a bare number", () => {
    for (const s of scripts) {
      const code = s.lua.replace(/--\[\[[\s\S]*?\]\]/g, "").replace(/--.*$/gm, "");
      expect(code, s.command).not.toMatch(/\breturn\s+-?\d/);
      expect(code, s.command).not.toMatch(/\bpush\(\s*-?\d/);
      expect(code, s.command).not.toMatch(/out\[#out \+ 1\] = .*\b(and|or)\s+-?\d/);
    }
  });

  it("issue-numbers uses every IssueReply code (none is dead on one side only)", () => {
    const issue = scripts.find((s) => s.command === "issueNumbers")!.lua.replace(/--\[\[[\s\S]*?\]\]/g, "");
    for (const key of Object.keys(IssueReply)) expect(issue, key).toMatch(new RegExp(`IssueReply\\.${key}\\b`));
  });
});
