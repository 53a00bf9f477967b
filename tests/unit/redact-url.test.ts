import { describe, expect, it } from "vitest";
import { redactUrl } from "@/lib/server/ops/logger.server";

describe("redactUrl", () => {
  it("hides the password and the user name of a URL, keeping where it points", () => {
    expect(redactUrl("redis://:s3cret@cache:6379/0")).toBe("redis://***@cache:6379/0");
    expect(redactUrl("rediss://default:s3cret@cache.example.com:6380")).toBe("rediss://***@cache.example.com:6380");
    expect(redactUrl("postgresql://app:p%40ss@db:5432/nextup")).toBe("postgresql://***@db:5432/nextup");
  });
  it("leaves a URL without credentials as it is, and never echoes what it cannot parse", () => {
    expect(redactUrl("redis://127.0.0.1:6379")).toBe("redis://127.0.0.1:6379");
    expect(redactUrl("not a url with s3cret")).toBe("[unparsable URL]");
  });
});
