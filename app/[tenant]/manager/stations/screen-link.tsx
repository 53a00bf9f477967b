"use client";

import { useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { BUTTON } from "../_components/console-styles";

const OUTLINE = `${BUTTON} inline-flex min-h-12 items-center border-2 border-slate-500 bg-white text-slate-800 hover:bg-slate-100 focus-visible:ring-blue-300`;

/** Puts `text` on the clipboard; false when the browser would not (the page then leaves it selected). */
async function copyText(text: string, shown: HTMLElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API on a plain-http LAN address: the old way, from the selected text.
    if (shown) window.getSelection()?.selectAllChildren(shown);
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/** A station screen's full address, to put on a tablet: shown whole (it may be typed by hand), with Copy and Open. */
export function ScreenLink({ id, name, url }: { id: string; name: string; url: string }) {
  const t = useTranslations("managerStations");
  const shown = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<null | boolean>(null);
  return (
    <div>
      <p id={`station-link-${id}`} className="mb-1 text-lg font-semibold">
        {t("screen")}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          ref={shown}
          aria-labelledby={`station-link-${id}`}
          data-testid="station-link"
          className="min-w-0 flex-1 basis-96 rounded-lg border-2 border-slate-300 bg-slate-50 px-3 py-2 font-mono text-base break-all text-slate-900"
        >
          {url}
        </code>
        <button
          type="button"
          aria-label={t("copyLabel", { name })}
          onClick={() => {
            setCopied(null);
            void copyText(url, shown.current).then(setCopied);
          }}
          className={OUTLINE}
        >
          {t("copy")}
        </button>
        <a href={url} target="_blank" rel="noopener noreferrer" aria-label={t("openLabel", { name })} className={`${OUTLINE} text-blue-800 no-underline`}>
          {t("openScreen")}
        </a>
      </div>
      {/* The live region stays in the page (so each copy is announced) and takes no room while empty. */}
      <p role="status" className={copied === null ? "sr-only" : "mt-1 text-base text-slate-700"}>
        {copied === true ? t("copied", { name }) : copied === false ? t("copyByHand") : ""}
      </p>
    </div>
  );
}
