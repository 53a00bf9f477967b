import { describe, expect, it } from "vitest";
import { BlockedError, CallQueue, type Call, type CallPlayers } from "@/app/[tenant]/board/call-queue";
import { pickVoice } from "@/app/[tenant]/board/voices";

const call = (n: number): Call => ({ key: `2026-11-22/1/${n}`, display: String(n), text: `Number ${n}` });

/** Players that log every step; each chime/utterance ends when the test says so (or never). */
function recorder(opts: { endChime?: boolean; endVoice?: boolean; blockChime?: boolean } = {}) {
  const log: string[] = [];
  const ends: (() => void)[] = [];
  const players: CallPlayers = {
    chime: () => {
      log.push("chime");
      if (opts.blockChime) return Promise.reject(new BlockedError());
      return opts.endChime === false ? new Promise(() => {}) : Promise.resolve();
    },
    cancelSpeech: () => log.push("cancel"),
    say: (c) => {
      log.push(`say ${c.text}`);
      if (opts.endVoice === false) return new Promise(() => {}); // onend never fires
      return new Promise((resolve) => ends.push(resolve));
    },
  };
  return { log, ends, players };
}

/** A manual clock for the watchdog. */
function timers() {
  const pending = new Map<number, () => void>();
  let next = 1;
  return {
    setTimer: (fn: () => void) => {
      pending.set(next, fn);
      return next++;
    },
    clearTimer: (h: unknown) => void pending.delete(h as number),
    fireAll: () => {
      const fns = [...pending.values()];
      pending.clear();
      for (const f of fns) f();
    },
    get count() {
      return pending.size;
    },
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const on = () => ({ chime: true, voice: true });

describe("the call queue", () => {
  it("plays the chime, cancels any speech, then says the number", async () => {
    const r = recorder();
    const q = new CallQueue({ players: r.players, settings: on });
    q.add(call(42));
    await flush();
    expect(r.log).toEqual(["chime", "cancel", "say Number 42"]);
  });

  it("says two numbers queued together one after the other, cancelling before each", async () => {
    const r = recorder();
    const q = new CallQueue({ players: r.players, settings: on });
    q.add(call(3));
    q.add(call(4));
    await flush();
    // The second waits for the first utterance to end.
    expect(r.log).toEqual(["chime", "cancel", "say Number 3"]);
    expect(q.waiting.map((c) => c.display)).toEqual(["4"]);
    r.ends.shift()!();
    await flush();
    expect(r.log).toEqual(["chime", "cancel", "say Number 3", "chime", "cancel", "say Number 4"]);
  });

  it("does not queue a number that is already waiting", async () => {
    const r = recorder();
    const q = new CallQueue({ players: r.players, settings: on });
    q.add(call(1));
    q.add(call(2));
    q.add(call(2));
    await flush();
    expect(q.waiting.map((c) => c.display)).toEqual(["2"]);
  });

  it("moves on when an utterance never reports its end (watchdog)", async () => {
    const r = recorder({ endVoice: false });
    const t = timers();
    const q = new CallQueue({ players: r.players, settings: on, setTimer: t.setTimer, clearTimer: t.clearTimer });
    q.add(call(7));
    q.add(call(8));
    await flush();
    expect(r.log).toEqual(["chime", "cancel", "say Number 7"]);
    t.fireAll();
    await flush();
    // The watchdog cancelled the stuck utterance, and the next number was called.
    expect(r.log).toEqual(["chime", "cancel", "say Number 7", "cancel", "chime", "cancel", "say Number 8"]);
  });

  it("moves on when the chime never ends", async () => {
    const r = recorder({ endChime: false });
    const t = timers();
    const q = new CallQueue({ players: r.players, settings: on, setTimer: t.setTimer, clearTimer: t.clearTimer });
    q.add(call(5));
    await flush();
    expect(r.log).toEqual(["chime"]);
    t.fireAll();
    await flush();
    expect(r.log).toEqual(["chime", "cancel", "say Number 5"]);
  });

  it("with the voice off only chimes; with the chime off only speaks", async () => {
    const chimeOnly = recorder();
    const q1 = new CallQueue({ players: chimeOnly.players, settings: () => ({ chime: true, voice: false }) });
    q1.add(call(1));
    q1.add(call(2));
    await flush();
    expect(chimeOnly.log).toEqual(["chime", "chime"]);

    const voiceOnly = recorder();
    const q2 = new CallQueue({ players: voiceOnly.players, settings: () => ({ chime: false, voice: true }) });
    q2.add(call(9));
    await flush();
    expect(voiceOnly.log).toEqual(["cancel", "say Number 9"]);
  });

  it("reports blocked sound and skips the voice of that call", async () => {
    const r = recorder({ blockChime: true });
    let blocked = 0;
    const q = new CallQueue({ players: r.players, settings: on, onBlocked: () => blocked++ });
    q.add(call(6));
    await flush();
    expect(blocked).toBe(1);
    expect(r.log).toEqual(["chime"]);
  });

  it("a failing chime (not blocked) still lets the number be said", async () => {
    const log: string[] = [];
    const q = new CallQueue({
      players: { chime: () => Promise.reject(new Error("404")), cancelSpeech: () => log.push("cancel"), say: async (c) => void log.push(c.text) },
      settings: on,
    });
    q.add(call(11));
    await flush();
    expect(log).toEqual(["cancel", "Number 11"]);
  });

  it("after close nothing more is said", async () => {
    const r = recorder();
    const q = new CallQueue({ players: r.players, settings: on });
    q.add(call(1));
    q.add(call(2));
    await flush();
    q.close();
    r.ends.shift()!();
    await flush();
    expect(r.log.filter((l) => l.startsWith("say"))).toEqual(["say Number 1"]);
  });
});

describe("choosing a device voice", () => {
  const v = (name: string, lang: string, extra: Partial<{ default: boolean; localService: boolean }> = {}) => ({
    name,
    lang,
    default: false,
    localService: true,
    ...extra,
  });

  it("takes a voice of exactly the screen's language first", () => {
    const voices = [v("UK", "en-GB"), v("US", "en-US"), v("Ting-Ting", "zh-CN")];
    expect(pickVoice(voices, "en")?.name).toBe("US");
    expect(pickVoice(voices, "zh-CN")?.name).toBe("Ting-Ting");
  });

  it("accepts another region of the language, and Android's en_US spelling", () => {
    expect(pickVoice([v("UK", "en-GB")], "en")?.name).toBe("UK");
    expect(pickVoice([v("Android", "en_US")], "en")?.name).toBe("Android");
    expect(pickVoice([v("Mei-Jia", "zh-TW"), v("Sin-ji", "zh-HK")], "zh-CN")?.name).toBe("Mei-Jia");
  });

  it("finds none when no voice speaks the language (the board then uses eSpeak NG)", () => {
    expect(pickVoice([v("US", "en-US")], "zh-CN")).toBeNull();
    expect(pickVoice([], "en")).toBeNull();
  });
});
