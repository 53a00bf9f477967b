import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { applyLanguage } from "@/lib/server/http/language.server";
import { LOCALE_HEADER, PATH_HEADER } from "@/lib/server/http/language-header";

function run(url: string, headers: Record<string, string> = {}) {
  const req = { url, headers: { ...headers } } as unknown as IncomingMessage;
  const cookies: string[] = [];
  const res = { appendHeader: (name: string, value: string) => name === "Set-Cookie" && cookies.push(value) } as unknown as ServerResponse;
  applyLanguage(req, res);
  return { headers: req.headers, cookies };
}

describe("?lang= before Next.js sees the request", () => {
  it("passes the language and the path on, and remembers the language on the device", () => {
    const { headers, cookies } = run("/demo/board?lang=zh-cn&x=1");
    expect(headers[LOCALE_HEADER]).toBe("zh-CN");
    expect(headers[PATH_HEADER]).toBe("/demo/board");
    expect(cookies).toEqual([expect.stringMatching(/^nextup-lang=zh-CN; Path=\/; Max-Age=\d+; SameSite=Lax$/)]);
  });

  it("ignores an unknown language and never trusts the client's own headers", () => {
    const { headers, cookies } = run("/demo/kiosk?lang=fr", { [LOCALE_HEADER]: "zh-CN", [PATH_HEADER]: "/other/board" });
    expect(headers[LOCALE_HEADER]).toBeUndefined();
    expect(headers[PATH_HEADER]).toBe("/demo/kiosk");
    expect(cookies).toEqual([]);
  });
});
