/**
 * The browser's side of calling a number: the chime and the fallback clip through an
 * <audio> element, the device voice through speechSynthesis. Each resolves when it ended
 * and rejects with BlockedError when autoplay rules refuse sound (the board then shows
 * "Enable sound" again).
 */
import { BlockedError } from "./call-queue";

export const CHIME_URL = "/sounds/chime.wav";

/** The fallback voice's clip of a displayed number ("12", "K12"), which one of the restaurant's open orders holds (GET /api/v1/orgs/{slug}/voice/{locale}/{display}.wav). */
export const voiceClipUrl = (slug: string, locale: string, display: string) =>
  `/api/v1/orgs/${encodeURIComponent(slug)}/voice/${encodeURIComponent(locale)}/${encodeURIComponent(display)}.wav`;

const isBlocked = (e: unknown) => e instanceof DOMException && e.name === "NotAllowedError";

/** Plays `src` on `audio` from the start; resolves on "ended". */
export function playMedia(audio: HTMLAudioElement, src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      audio.removeEventListener("ended", onEnded);
      audio.removeEventListener("error", onError);
    };
    const onEnded = () => {
      cleanup();
      resolve();
    };
    const onError = () => {
      cleanup();
      reject(new Error(`could not play ${src}`));
    };
    audio.addEventListener("ended", onEnded);
    audio.addEventListener("error", onError);
    if (audio.getAttribute("src") !== src) audio.src = src;
    else audio.currentTime = 0;
    audio.play().catch((e: unknown) => {
      cleanup();
      reject(isBlocked(e) ? new BlockedError() : e);
    });
  });
}

// Chrome drops an utterance that nothing references before it ends (and never fires onend).
const speaking = new Set<SpeechSynthesisUtterance>();

/** Says `text` with speechSynthesis in `lang`, with `voice` when the device has one. */
export function speak(text: string, lang: string, voice: SpeechSynthesisVoice | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const u = new SpeechSynthesisUtterance(text);
    u.lang = lang;
    if (voice) u.voice = voice;
    u.onend = () => {
      speaking.delete(u);
      resolve();
    };
    u.onerror = (e) => {
      speaking.delete(u);
      if (e.error === "not-allowed") reject(new BlockedError());
      else if (e.error === "interrupted" || e.error === "canceled") resolve();
      else reject(new Error(`speech failed: ${e.error}`));
    };
    speaking.add(u);
    window.speechSynthesis.speak(u);
  });
}

export function cancelSpeech(): void {
  if (typeof window !== "undefined" && "speechSynthesis" in window) window.speechSynthesis.cancel();
  speaking.clear();
}

/** Inside the tap on "Enable sound": iOS and some TVs allow speech only once it was started by a gesture. */
export function unlockSpeech(): void {
  if (!("speechSynthesis" in window)) return;
  const u = new SpeechSynthesisUtterance(" ");
  u.volume = 0;
  window.speechSynthesis.speak(u);
}
