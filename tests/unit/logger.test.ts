import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "@/lib/server/ops/logger.server";
import { runWithRequest } from "@/lib/server/ops/request-context.server";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLogger("debug", { destination }) };
}

describe("createLogger", () => {
  it("adds the request's id and tenant to every line written inside its context, and a field given explicitly wins", async () => {
    const { lines, log } = capture();
    log.info("outside");
    await runWithRequest({ reqId: "req-1", tenant: "alpha" }, async () => {
      log.info("first");
      await new Promise((r) => setTimeout(r, 1));
      log.warn({ tenant: "other" }, "second");
    });
    expect(lines.map((l) => [l.msg, l.reqId, l.tenant])).toEqual([
      ["outside", undefined, undefined],
      ["first", "req-1", "alpha"],
      ["second", "req-1", "other"],
    ]);
  });

  it("censors authorization and cookie headers, tokens and secrets", () => {
    const { lines, log } = capture();
    log.info(
      {
        headers: { authorization: "Bearer S3CRET-1", cookie: "nextup_session=S3CRET-2", "set-cookie": "nextup_session=S3CRET-3", accept: "*/*" },
        req: { headers: { authorization: "Bearer S3CRET-4", cookie: "s=S3CRET-5" } },
        token: "S3CRET-6",
        session: { token: "S3CRET-7" },
        apiKey: "S3CRET-8",
        secret: "whsec_S3CRET-9",
      },
      "with secrets",
    );
    expect(JSON.stringify(lines)).not.toContain("S3CRET");
    expect(lines[0]).toMatchObject({ headers: { authorization: "[redacted]", cookie: "[redacted]", "set-cookie": "[redacted]", accept: "*/*" } });
  });
});
