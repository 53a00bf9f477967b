/**
 * The renderer's two lanes (decision 0036), with a stand-in child process instead of eSpeak
 * NG: a clip rendered ahead goes before every stranger's render already waiting; strangers'
 * renders wait in a bounded queue (then UNAVAILABLE) that never refuses the board's; a
 * clip rendered ahead stays cached (pinned) however many other clips follow it.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { VoiceRenderer, type Lane } from "@/lib/adapters/voice/voice.server";

const script = path.join(process.cwd(), "tests/support/fake-espeak-process.mjs");
const n = (number: number) => ({ prefix: "", number });
let voice: VoiceRenderer | null = null;
afterEach(() => voice?.close());

describe("VoiceRenderer lanes", () => {
  it("renders a clip rendered ahead before strangers' waiting renders, refuses strangers past the public queue, and keeps the clip pinned", async () => {
    const rendered: Lane[] = [];
    const refused: string[] = [];
    voice = new VoiceRenderer({
      script,
      maxPublicQueue: 3,
      cacheSize: 2,
      metrics: { rendered: (lane) => rendered.push(lane), refused: (reason) => refused.push(reason) },
    });
    const done: string[] = [];
    const first = voice.clip("en", n(1)); // under way: the child has it
    const strangers = [2, 3, 4].map((k) => voice!.clip("en", n(k)).then((c) => (done.push(`stranger ${k}`), c)));
    const tooMany = await voice.clip("en", n(5)).catch((e: unknown) => e);
    expect(tooMany).toBeInstanceOf(AppError);
    expect((tooMany as AppError).code).toBe("UNAVAILABLE");

    voice.ahead("en", n(9), Date.now() + 60_000);
    const board = voice.clip("en", n(9)).then((c) => (done.push("board 9"), c));
    await Promise.all([first, ...strangers, board]);
    expect(done).toEqual(["board 9", "stranger 2", "stranger 3", "stranger 4"]);
    expect((await board).cache).toBe("board");
    expect(Buffer.from((await board).wav).toString()).toBe("en-us:Number nine");
    expect({ rendered, refused }).toEqual({ rendered: ["public", "board", "public", "public", "public"], refused: ["busy"] });

    // The LRU holds 2: strangers' clips push each other out, never the pinned one.
    expect((await voice.clip("en", n(9))).cache).toBe("hit");
    expect((await voice.clip("en", n(2))).cache).toBe("miss");
  });

  it("a stranger's waiting render of a number then made ready moves to the board's lane", async () => {
    voice = new VoiceRenderer({ script });
    const done: string[] = [];
    const first = voice.clip("en", n(1));
    const strangers = [2, 3].map((k) => voice!.clip("en", n(k)).then(() => done.push(`stranger ${k}`)));
    voice.ahead("en", n(3), Date.now() + 60_000);
    await Promise.all([first, ...strangers]);
    expect(done).toEqual(["stranger 3", "stranger 2"]);
    expect((await voice.clip("en", n(3))).cache).toBe("hit");
  });
});
