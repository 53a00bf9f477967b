"use client";

import { useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { BUTTON, INPUT } from "../_components/console-styles";

const OUTLINE = `${BUTTON} inline-flex min-h-12 items-center border-2 border-slate-500 bg-white text-slate-800 hover:bg-slate-100 focus-visible:ring-blue-300`;

/** Puts `text` on the clipboard; false when the browser would not (the page then leaves it selected). */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API on a plain-http LAN address: the old way, from the selected field.
    field?.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/** A station screen's full address, to put on a tablet: shown in a field, with Copy and Open. */
export function ScreenLink({ id, name, url }: { id: string; name: string; url: string }) {
  const t = useTranslations("managerStations");
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<null | boolean>(null);
  return (
    <div>
      <label htmlFor={`station-link-${id}`} className="mb-1 block text-lg font-semibold">
        {t("screen")}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={field}
          id={`station-link-${id}`}
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="station-link"
          className={`${INPUT} min-w-0 flex-1 basis-96 bg-slate-50 font-mono text-base`}
        />
        <button
          type="button"
          aria-label={t("copyLabel", { name })}
          onClick={() => {
            setCopied(null);
            void copyText(url, field.current).then(setCopied);
          }}
          className={OUTLINE}
        >
          {t("copy")}
        </button>
        <a href={url} target="_blank" rel="noopener noreferrer" aria-label={t("openLabel", { name })} className={`${OUTLINE} text-blue-800 no-underline`}>
          {t("openScreen")}
        </a>
      </div>
      <p role="status" className="mt-1 min-h-6 text-base text-slate-700">
        {copied === true ? t("copied", { name }) : copied === false ? t("copyByHand") : ""}
      </p>
    </div>
  );
}
