"use client";

/**
 * The board's sound, kept small in a corner of the TV: one "Enable sound" tap (browsers
 * refuse sound until someone taps), then switches for the chime and the voice, and which
 * voice speaks.
 */
import { useTranslations } from "next-intl";
import type { Caller } from "./use-caller";
import type { VoiceEngine } from "./use-voice-engine";
import { Icon } from "@/app/_components/icon";

const button = "rounded-lg px-3 py-1.5 font-semibold focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-sky-400";

function VoiceName({ engine }: { engine: VoiceEngine }) {
  const t = useTranslations("board.sound");
  const text =
    engine.kind === "device"
      ? t("voiceDevice", { name: engine.voice.name })
      : engine.kind === "espeak"
        ? t("voiceEspeak")
        : engine.kind === "none"
          ? t("voiceNone")
          : t("voicePending");
  return (
    <span data-testid="voice-name" className="max-w-[22vw] truncate text-slate-400">
      {text}
    </span>
  );
}

function Toggle({ label, on, onChange }: { label: string; on: boolean; onChange: (on: boolean) => void }) {
  const t = useTranslations("board.sound");
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={() => onChange(!on)}
      className={`${button} ring-1 ${on ? "bg-slate-800 text-white ring-slate-500" : "bg-transparent text-slate-400 ring-slate-700 line-through"}`}
    >
      {label}
      <span aria-hidden="true" className="ml-1.5 font-normal no-underline">
        {on ? t("on") : t("off")}
      </span>
    </button>
  );
}

export function SoundControls({ caller }: { caller: Caller }) {
  const t = useTranslations("board.sound");
  if (caller.needsTap) {
    return (
      <button type="button" onClick={caller.enable} className={`${button} bg-amber-300 text-black hover:bg-amber-200`}>
        <Icon name="speaker" className="mr-2 inline size-5 align-[-0.2em]" />
        {t("enable")}
      </button>
    );
  }
  return (
    <div role="group" aria-label={t("controls")} className="flex items-center gap-2 text-[min(1vw,1.8vh)]">
      <VoiceName engine={caller.engine} />
      <Toggle label={t("chime")} on={caller.settings.chime} onChange={(chime) => caller.update({ chime })} />
      <Toggle label={t("voice")} on={caller.settings.voice} onChange={(voice) => caller.update({ voice })} />
    </div>
  );
}
