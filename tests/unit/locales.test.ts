import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fromAcceptLanguage, LOCALES, pickLocale } from "@/lib/core/locales";

describe("choosing a request's language", () => {
  it("takes ?lang first, then the device, then the restaurant, then the browser, then English", () => {
    expect(pickLocale({ query: "zh-cn", remembered: "en", tenantDefault: "en", acceptLanguage: "en" })).toBe("zh-CN");
    expect(pickLocale({ query: "fr", remembered: "zh-CN", tenantDefault: "en" })).toBe("zh-CN");
    expect(pickLocale({ remembered: "xx", tenantDefault: "zh-CN", acceptLanguage: "en" })).toBe("zh-CN");
    expect(pickLocale({ acceptLanguage: "de-DE,zh-TW;q=0.8,en;q=0.5" })).toBe("zh-CN");
    expect(pickLocale({ acceptLanguage: "de-DE" })).toBe("en");
    expect(pickLocale({})).toBe("en");
  });

  it("reads Accept-Language by quality, not by position", () => {
    expect(fromAcceptLanguage("en;q=0.4, zh-CN;q=0.9")).toBe("zh-CN");
    expect(fromAcceptLanguage("zh;q=0, en")).toBe("en");
  });
});

describe("message catalogues", () => {
  const keys = (o: unknown, prefix = ""): string[] =>
    typeof o === "object" && o !== null ? Object.entries(o).flatMap(([k, v]) => keys(v, `${prefix}${k}.`)) : [prefix.slice(0, -1)];
  const dir = (l: string) => new URL(`../../lib/i18n/messages/${l}/`, import.meta.url);

  it("every language has the same files and the same keys, none empty", () => {
    const files = readdirSync(dir("en")).sort();
    for (const locale of LOCALES) {
      expect(readdirSync(dir(locale)).sort()).toEqual(files);
      for (const f of files) {
        const en = JSON.parse(readFileSync(new URL(f, dir("en")), "utf8")) as unknown;
        const other = JSON.parse(readFileSync(new URL(f, dir(locale)), "utf8")) as Record<string, unknown>;
        expect(keys(other).sort(), `${locale}/${f}`).toEqual(keys(en).sort());
        expect(JSON.stringify(other), `${locale}/${f} has an empty message`).not.toMatch(/:""/);
      }
    }
  });
});
