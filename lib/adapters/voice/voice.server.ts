/**
 * The board's fallback voice on the server: spoken numbers rendered by eSpeak NG in a
 * child process (lib/adapters/voice/espeak-process.mjs; why a process: decision 0008).
 * One render at a time, a bounded queue (full → 503), a timeout (the child is replaced),
 * an LRU cache of clips, so a number called again costs nothing, and at most one render
 * in flight per owner (a client address group), so no one client fills the queue.
 */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { AppError } from "@/lib/core/errors";
import type { Locale } from "@/lib/core/locales";
import { displayNumber } from "@/lib/core/display-number";
import { spokenNumber } from "@/lib/core/spoken-number";
import { Lru } from "./lru";

/** A displayed number: a series' prefix ("" for none) and the number (decision 0027). */
export interface CalledNumber {
  prefix: string;
  number: number;
}

/** One clip per language and displayed number ("en/K12"; "en/12" as before prefixes). */
const clipKey = (locale: Locale, called: CalledNumber) => `${locale}/${displayNumber(called.prefix, called.number)}`;

export interface VoiceClip {
  wav: Uint8Array;
  cache: "hit" | "miss";
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
  maxQueue?: number;
  timeoutMs?: number;
  cacheSize?: number;
  log?: { warn(obj: object, msg: string): void };
}

/** eSpeak NG's voice for each screen language. */
const ESPEAK_VOICE: Record<Locale, string> = { en: "en-us", "zh-CN": "cmn" };

interface Job {
  id: number;
  voice: string;
  text: string;
  resolve: (wav: Uint8Array) => void;
  reject: (e: Error) => void;
}

export class VoiceRenderer {
  private child: ChildProcess | null = null;
  private readonly queue: Job[] = [];
  private current: { job: Job; timer: ReturnType<typeof setTimeout> } | null = null;
  private readonly cache: Lru<string, Uint8Array>;
  private readonly inflight = new Map<string, Promise<Uint8Array>>();
  private readonly owners = new Set<string>();
  private nextId = 1;
  private readonly script: string;
  private readonly maxQueue: number;
  private readonly timeoutMs: number;

  constructor(private readonly opts: VoiceOptions = {}) {
    // Bundled route code has no stable __dirname: the custom server runs from the app's root.
    this.script = opts.script ?? path.join(process.cwd(), "lib/adapters/voice/espeak-process.mjs");
    this.maxQueue = opts.maxQueue ?? 32;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.cache = new Lru(opts.cacheSize ?? 256);
  }

  /** The clip if it is cached (no render, no cost). */
  cached(locale: Locale, called: CalledNumber): Uint8Array | undefined {
    return this.cache.get(clipKey(locale, called));
  }

  /**
   * The WAV of `spokenNumber(number, locale, prefix)`; throws AppError UNAVAILABLE when busy
   * or broken, RATE_LIMITED when `claim.owner` already has a render in flight.
   */
  async clip(locale: Locale, called: CalledNumber, claim?: RenderClaim): Promise<VoiceClip> {
    const key = clipKey(locale, called);
    const cached = this.cache.get(key);
    if (cached) return { wav: cached, cache: "hit", renderMs: 0 };
    const started = performance.now();
    let pending = this.inflight.get(key);
    if (!pending && claim) {
      await this.claim(claim);
      // While `admit` ran, another request may have rendered or started the same clip.
      const done = this.cache.get(key);
      pending = done ? Promise.resolve(done) : this.inflight.get(key);
      if (pending) this.owners.delete(claim.owner);
    }
    if (!pending) {
      pending = this.render(ESPEAK_VOICE[locale], spokenNumber(called.number, locale, called.prefix)).finally(() => {
        this.inflight.delete(key);
        if (claim) this.owners.delete(claim.owner);
      });
      this.inflight.set(key, pending);
    }
    const wav = await pending;
    this.cache.set(key, wav);
    return { wav, cache: "miss", renderMs: Math.round(performance.now() - started) };
  }

  /** Marks `owner` as rendering (refused when it already is), then runs `admit`. */
  private async claim({ owner, admit }: RenderClaim): Promise<void> {
    if (this.owners.has(owner)) {
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
      throw e;
    }
  }

  /** Ends the child process (it also ends by itself when this process goes away). */
  close(): void {
    this.child?.kill();
    this.child = null;
  }

  private render(voice: string, text: string): Promise<Uint8Array> {
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(new AppError("UNAVAILABLE", { message: "voice render queue full", userMessage: "The voice is busy. Please retry." }));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, voice, text, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.current) return;
    const job = this.queue.shift();
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
      if (msg.wav) job.resolve(msg.wav);
      else job.reject(new AppError("UNAVAILABLE", { message: `voice render failed: ${msg.error}`, userMessage: "The voice could not be rendered." }));
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
