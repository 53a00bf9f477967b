/**
 * The board's fallback voice on the server: spoken numbers rendered by eSpeak NG in a
 * child process (lib/adapters/voice/espeak-process.mjs; why a process: decision 0008).
 * One render at a time from two lanes (decision 0036): the board's — clips rendered ahead
 * for numbers just made ready or called again, and requests for them — always goes first;
 * strangers' requests wait in a short public queue (full → 503), at most one in flight per
 * owner (a client address group). A timeout replaces the child; clips of called numbers
 * are pinned in the cache, so strangers' renders never push them out.
 */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { AppError } from "@/lib/core/errors";
import type { Locale } from "@/lib/core/locales";
import { displayNumber } from "@/lib/core/display-number";
import { spokenNumber } from "@/lib/core/spoken-number";
import { ClipCache } from "./clip-cache";
import { FallbackBoards } from "./fallback-boards";

/** A displayed number: a series' prefix ("" for none) and the number (decision 0027). */
export interface CalledNumber {
  prefix: string;
  number: number;
}

/** One clip per language and displayed number ("en/K12"; "en/12" as before prefixes). */
const clipKey = (locale: Locale, called: CalledNumber) => `${locale}/${displayNumber(called.prefix, called.number)}`;

/** Where a render waits: the board's lane goes first; the public lane takes what is left. */
export type Lane = "board" | "public";

export interface VoiceClip {
  wav: Uint8Array;
  /** hit: cached; board: rendered in the board's lane (a called number, never charged to the asker); miss: rendered for this request. */
  cache: "hit" | "board" | "miss";
  /** Time spent rendering (0 for a cache hit). */
  renderMs: number;
}

/** Who asks for a render, and what must pass before one starts (a cached or joined clip needs neither). */
export interface RenderClaim {
  /** One render in flight per owner on this node: a second is RATE_LIMITED at once, never queued. */
  owner: string;
  /** Runs before the render starts (e.g. a per-minute limit); a rejection refuses it. */
  admit?: () => Promise<void>;
}

export interface VoiceOptions {
  /** Path of espeak-process.mjs (default: under the app's working directory). */
  script?: string;
  /** Renders waiting in the board's lane at most. */
  maxQueue?: number;
  /** Strangers' renders waiting at most, whatever their addresses (then 503). */
  maxPublicQueue?: number;
  timeoutMs?: number;
  /** Clips kept by recency. */
  cacheSize?: number;
  /** Clips of called numbers kept whatever else is asked for. */
  pinnedSize?: number;
  now?: () => number;
  log?: { warn(obj: object, msg: string): void };
  metrics?: VoiceMetrics;
}

export interface VoiceMetrics {
  rendered(lane: Lane): void;
  /** A stranger's render refused: `busy` (the public queue is full) or `address` (its own bounds). */
  refused(reason: "busy" | "address"): void;
}

/** eSpeak NG's voice for each screen language. */
const ESPEAK_VOICE: Record<Locale, string> = { en: "en-us", "zh-CN": "cmn" };

interface Job {
  id: number;
  key: string;
  voice: string;
  text: string;
  lane: Lane;
  resolve: (wav: Uint8Array) => void;
  reject: (e: Error) => void;
}

export class VoiceRenderer {
  private child: ChildProcess | null = null;
  private readonly queues: Record<Lane, Job[]> = { board: [], public: [] };
  private current: { job: Job; timer: ReturnType<typeof setTimeout> } | null = null;
  private readonly cache: ClipCache;
  private readonly inflight = new Map<string, Promise<Uint8Array>>();
  /** Clips boards call now, and until when: asked for, they take the board's lane and are pinned once rendered. */
  private readonly called = new Map<string, number>();
  private readonly owners = new Set<string>();
  private nextId = 1;
  private readonly script: string;
  private readonly maxQueue: Record<Lane, number>;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  /** Restaurants whose boards ask for clips here: the ones clips are rendered ahead for. */
  readonly boards: FallbackBoards;

  constructor(private readonly opts: VoiceOptions = {}) {
    // Bundled route code has no stable __dirname: the custom server runs from the app's root.
    this.script = opts.script ?? path.join(process.cwd(), "lib/adapters/voice/espeak-process.mjs");
    this.maxQueue = { board: opts.maxQueue ?? 32, public: opts.maxPublicQueue ?? 8 };
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.now = opts.now ?? Date.now;
    this.cache = new ClipCache({ size: opts.cacheSize ?? 256, pinnedSize: opts.pinnedSize ?? 512, now: this.now });
    this.boards = new FallbackBoards(this.now);
  }

  /** The clip if it is cached (no render, no cost). */
  cached(locale: Locale, called: CalledNumber): Uint8Array | undefined {
    return this.cache.get(clipKey(locale, called));
  }

  /**
   * Boards will call this number until `until` (ms): its clip is rendered now in the board's
   * lane unless cached or under way, and kept pinned till then. Never throws (a failed
   * render is logged; a board's request renders it again in the board's lane).
   */
  ahead(locale: Locale, called: CalledNumber, until: number): void {
    const key = clipKey(locale, called);
    const now = this.now();
    if (until <= now) return;
    for (const [k, end] of this.called) if (end <= now) this.called.delete(k);
    this.called.set(key, Math.max(until, this.called.get(key) ?? 0));
    if (this.cache.pin(key, until)) return;
    if (this.inflight.has(key)) return this.promote(key);
    this.start(key, locale, called, "board").catch((e: unknown) => {
      this.opts.log?.warn({ err: e instanceof Error ? e.message : String(e), clip: key }, "voice clip not rendered ahead");
    });
  }

  /**
   * The WAV of `spokenNumber(number, locale, prefix)`. A number boards call now takes the
   * board's lane, free; any other is a stranger's render: `claim` first (RATE_LIMITED when
   * its owner already has one in flight), then the public queue (UNAVAILABLE when full).
   */
  async clip(locale: Locale, called: CalledNumber, claim?: RenderClaim): Promise<VoiceClip> {
    const key = clipKey(locale, called);
    const cached = this.cache.get(key);
    if (cached) return { wav: cached, cache: "hit", renderMs: 0 };
    const started = performance.now();
    const board = this.pinUntil(key) !== undefined;
    let pending = this.inflight.get(key);
    if (pending && board) this.promote(key);
    if (!pending && claim && !board) {
      await this.claim(claim);
      // While `admit` ran, another request may have rendered or started the same clip.
      const done = this.cache.get(key);
      pending = done ? Promise.resolve(done) : this.inflight.get(key);
      if (pending) this.owners.delete(claim.owner);
      else pending = this.start(key, locale, called, "public").finally(() => this.owners.delete(claim.owner));
    }
    const wav = await (pending ?? this.start(key, locale, called, board ? "board" : "public"));
    return { wav, cache: board ? "board" : "miss", renderMs: Math.round(performance.now() - started) };
  }

  /** Renders a clip once (requests for it meanwhile join), then caches it, pinned while boards call it. */
  private start(key: string, locale: Locale, called: CalledNumber, lane: Lane): Promise<Uint8Array> {
    const pending = this.render(key, ESPEAK_VOICE[locale], spokenNumber(called.number, locale, called.prefix), lane)
      .then((wav) => {
        this.cache.set(key, wav, this.pinUntil(key));
        return wav;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, pending);
    return pending;
  }

  /** A stranger's queued render of a clip boards now call moves to the board's lane. */
  private promote(key: string): void {
    const at = this.queues.public.findIndex((j) => j.key === key);
    if (at < 0) return;
    const [job] = this.queues.public.splice(at, 1);
    this.queues.board.push({ ...job!, lane: "board" });
  }

  private pinUntil(key: string): number | undefined {
    const until = this.called.get(key);
    return until !== undefined && until > this.now() ? until : undefined;
  }

  /** Marks `owner` as rendering (refused when it already is), then runs `admit`. */
  private async claim({ owner, admit }: RenderClaim): Promise<void> {
    if (this.owners.has(owner)) {
      this.opts.metrics?.refused("address");
      throw new AppError("RATE_LIMITED", {
        message: `Rate limit: a voice clip is already being rendered for ${owner}`,
        userMessage: "A clip is already being made for you: retry in 1 s.",
        details: { retryAfter: 1 },
      });
    }
    this.owners.add(owner);
    try {
      await admit?.();
    } catch (e) {
      this.owners.delete(owner);
      if (e instanceof AppError && e.code === "RATE_LIMITED") this.opts.metrics?.refused("address");
      throw e;
    }
  }

  /** Ends the child process (it also ends by itself when this process goes away). */
  close(): void {
    this.child?.kill();
    this.child = null;
  }

  private render(key: string, voice: string, text: string, lane: Lane): Promise<Uint8Array> {
    if (this.queues[lane].length >= this.maxQueue[lane]) {
      if (lane === "public") this.opts.metrics?.refused("busy");
      return Promise.reject(
        new AppError("UNAVAILABLE", { message: `voice render queue full (${lane} lane)`, userMessage: "The voice is busy. Please retry." }),
      );
    }
    return new Promise((resolve, reject) => {
      this.queues[lane].push({ id: this.nextId++, key, voice, text, lane, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.current) return;
    // The board's lane first: a called number waits at most for the one render under way.
    const job = this.queues.board.shift() ?? this.queues.public.shift();
    if (!job) return;
    const child = this.ensureChild();
    const timer = setTimeout(() => this.fail(new Error(`voice render timed out after ${this.timeoutMs} ms`), true), this.timeoutMs);
    this.current = { job, timer };
    child.send({ id: job.id, voice: job.voice, text: job.text });
  }

  private ensureChild(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(this.script, [], { serialization: "advanced", stdio: ["ignore", "ignore", "pipe", "ipc"] });
    child.stderr?.on("data", (d: Buffer) => this.opts.log?.warn({ stderr: d.toString().slice(0, 500) }, "voice process wrote to stderr"));
    child.on("message", (msg: { id: number; wav?: Uint8Array; error?: string }) => {
      if (!this.current || msg.id !== this.current.job.id) return;
      const { job, timer } = this.current;
      clearTimeout(timer);
      this.current = null;
      if (msg.wav) {
        this.opts.metrics?.rendered(job.lane);
        job.resolve(msg.wav);
      } else job.reject(new AppError("UNAVAILABLE", { message: `voice render failed: ${msg.error}`, userMessage: "The voice could not be rendered." }));
      this.pump();
    });
    child.on("exit", (code, signal) => {
      if (this.child !== child) return;
      this.child = null;
      if (this.current) this.fail(new Error(`voice process exited (${code ?? signal})`), false);
    });
    // Never keeps the server alive at shutdown.
    child.unref();
    child.channel?.unref();
    this.child = child;
    return child;
  }

  /** Rejects the current job; the next one gets a fresh child when `kill` (a hung render). */
  private fail(cause: Error, kill: boolean): void {
    if (!this.current) return;
    const { job, timer } = this.current;
    clearTimeout(timer);
    this.current = null;
    this.opts.log?.warn({ err: cause.message }, "voice render failed");
    if (kill) this.close();
    job.reject(new AppError("UNAVAILABLE", { message: cause.message, userMessage: "The voice could not be rendered. Please retry." }));
    this.pump();
  }
}
