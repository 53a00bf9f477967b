/**
 * The board's calls, one after another: chime, then the number said out loud. Plain
 * TypeScript with the players handed in, so the order, the cancel before each utterance
 * and the watchdog are unit-tested (tests/unit/call-queue.test.ts).
 */

export interface Call {
  /** The order's board key (boardKey): the same order queued twice is said once. */
  key: string;
  /** What the board shows ("K12", "12"): the fallback voice's clip is asked for by it. */
  display: string;
  /** What to say, from spokenNumber(). */
  text: string;
}

export interface CallPlayers {
  /** Plays the chime; resolves when it ended. Rejects with BlockedError when the browser refuses sound. */
  chime(): Promise<void>;
  /** Stops any utterance in progress (Chrome stalls after long runs unless cancelled). */
  cancelSpeech(): void;
  /** Says `call.text`; resolves when done. Rejects with BlockedError when the browser refuses sound. */
  say(call: Call): Promise<void>;
}

export interface CallQueueOptions {
  players: CallPlayers;
  /** Read before each call, so a switch takes effect on the next number. */
  settings: () => { chime: boolean; voice: boolean };
  /** The browser refused to play: the board shows "Enable sound" again. */
  onBlocked?: () => void;
  /** The longest a step may take before the queue moves on (a missing onend/ended never blocks it). */
  watchdogMs?: (step: "chime" | "voice", call: Call) => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** Thrown (rejected) by a player when autoplay rules refuse sound until someone taps. */
export class BlockedError extends Error {
  constructor() {
    super("playback blocked until a user gesture");
    this.name = "BlockedError";
  }
}

/** A chime is about 1 s; a spoken number a few seconds, longer for long numbers. */
export function defaultWatchdogMs(step: "chime" | "voice", call: Call): number {
  return step === "chime" ? 3_000 : Math.min(15_000, 4_000 + call.text.length * 150);
}

export class CallQueue {
  private readonly pending: Call[] = [];
  private running = false;
  private closed = false;

  constructor(private readonly opts: CallQueueOptions) {}

  /** Queues a call; a number already waiting is not queued twice. */
  add(call: Call): void {
    if (this.closed || this.pending.some((c) => c.key === call.key)) return;
    this.pending.push(call);
    void this.run();
  }

  /** Calls still waiting (not the one being said). */
  get waiting(): readonly Call[] {
    return this.pending;
  }

  get busy(): boolean {
    return this.running;
  }

  /** Drops what is waiting and stops speaking (the board unmounts or sound is switched off). */
  close(): void {
    this.closed = true;
    this.pending.length = 0;
    this.opts.players.cancelSpeech();
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let call = this.pending.shift(); call && !this.closed; call = this.pending.shift()) {
        await this.play(call);
      }
    } finally {
      this.running = false;
    }
  }

  private async play(call: Call): Promise<void> {
    const { players, settings } = this.opts;
    if (settings().chime && !(await this.step("chime", call, () => players.chime()))) return;
    if (settings().voice && !this.closed) {
      players.cancelSpeech();
      await this.step("voice", call, () => players.say(call));
    }
  }

  /** One step of a call; false when the browser blocked sound (the rest of the call is skipped). */
  private async step(step: "chime" | "voice", call: Call, fn: () => Promise<void>): Promise<boolean> {
    try {
      await this.guarded(step, call, fn);
      return true;
    } catch (e) {
      if (e instanceof BlockedError) {
        this.opts.onBlocked?.();
        return false;
      }
      // A broken chime file or voice: the number is still said / the next one still called.
      return true;
    }
  }

  /** Runs a step; resolves when it ends or when its watchdog fires, whichever is first. */
  private guarded(step: "chime" | "voice", call: Call, fn: () => Promise<void>): Promise<void> {
    const setTimer = this.opts.setTimer ?? ((f, ms) => setTimeout(f, ms));
    const clearTimer = this.opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    const ms = (this.opts.watchdogMs ?? defaultWatchdogMs)(step, call);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimer(() => {
        if (step === "voice") this.opts.players.cancelSpeech();
        resolve();
      }, ms);
      fn().then(
        () => {
          clearTimer(timer);
          resolve();
        },
        (e: unknown) => {
          clearTimer(timer);
          reject(e);
        },
      );
    });
  }
}
