"use client";

import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import { CHANNELS } from "@/lib/core/orders";
import { DEFAULT_PRINTER_PORT } from "@/lib/core/printing/printer-network";
import { MAX_PRINTER_NAME, type Charset } from "@/lib/core/printing/printers";
import { FormError } from "@/app/_components/form-error";
import { INPUT } from "../_components/console-styles";
import type { PrinterRow, SeriesChoice } from "./rows";

const LABEL = "mb-1 block text-lg font-semibold";
const HINT = "text-base text-slate-700";
const CHOICE = "flex min-h-11 items-center gap-2 text-lg";
const BOX = "h-6 w-6 shrink-0 accent-blue-700";

/** The fields an error can name, each with its own place in the form. */
export const PRINTER_FIELDS = ["name", "host", "port", "paper", "charset", "channels", "series"] as const;
export type PrinterField = (typeof PRINTER_FIELDS)[number];

/** A form error that names one of the printer's fields shows under it; any other, under the form. */
export const fieldOf = (field: string | undefined): PrinterField | null =>
  field !== undefined && (PRINTER_FIELDS as readonly string[]).includes(field) ? (field as PrinterField) : null;

/** A printer's fields: the same to add one and to change one. `error`: the save's error and the field it names. */
export function PrinterFields({
  idPrefix,
  initial,
  series,
  defaultCharset,
  error,
}: {
  idPrefix: string;
  initial?: PrinterRow;
  series: readonly SeriesChoice[];
  defaultCharset: Charset;
  error: { field: PrinterField; message: string } | null;
}) {
  const t = useTranslations("managerPrinters");
  const ts = useTranslations("managerSeries");
  const id = (f: string) => `${idPrefix}-${f}`;
  const errorOf = (f: PrinterField) => (error?.field === f ? error.message : null);
  /** aria attributes of a field: its hints, and its error when it has one. */
  const described = (f: PrinterField, ...hints: string[]) => ({
    "aria-invalid": errorOf(f) ? true : undefined,
    "aria-describedby": [...hints, ...(errorOf(f) ? [id(`${f}-error`)] : [])].join(" ") || undefined,
  });
  const fieldError = (f: PrinterField): ReactNode => <FormError id={id(`${f}-error`)} message={errorOf(f)} className="mt-2 px-4 py-3 text-lg" />;

  return (
    <>
      <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,1fr)]">
        <div>
          <label htmlFor={id("name")} className={LABEL}>
            {t("name")}
          </label>
          <input
            id={id("name")}
            name="name"
            aria-required="true"
            maxLength={MAX_PRINTER_NAME}
            autoComplete="off"
            defaultValue={initial?.name}
            placeholder={t("namePlaceholder")}
            {...described("name")}
            className={`${INPUT} bg-white`}
          />
        </div>
        <div>
          <label htmlFor={id("host")} className={LABEL}>
            {t("host")}
          </label>
          <input
            id={id("host")}
            name="host"
            aria-required="true"
            maxLength={253}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            defaultValue={initial?.host}
            placeholder={t("hostPlaceholder")}
            {...described("host", id("address-hint"))}
            className={`${INPUT} bg-white font-mono`}
          />
        </div>
        <div>
          <label htmlFor={id("port")} className={LABEL}>
            {t("port")}
          </label>
          <input
            id={id("port")}
            name="port"
            inputMode="numeric"
            aria-required="true"
            maxLength={5}
            autoComplete="off"
            defaultValue={String(initial?.port ?? DEFAULT_PRINTER_PORT)}
            {...described("port", id("address-hint"))}
            className={`${INPUT} bg-white tabular-nums`}
          />
        </div>
      </div>
      {/* Under the whole row: a column is too narrow for a sentence about the address. */}
      {fieldError("name")}
      {fieldError("host")}
      {fieldError("port")}
      <p id={id("address-hint")} className={HINT}>
        {t("addressHint")}
      </p>

      <div className="grid gap-4 md:grid-cols-2">
        <fieldset {...described("paper")}>
          <legend className={LABEL}>{t("paper")}</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {(["80mm", "58mm"] as const).map((p) => (
              <label key={p} className={CHOICE}>
                <input type="radio" name="paper" value={p} defaultChecked={(initial?.paper ?? "80mm") === p} className={BOX} />
                {t(p === "80mm" ? "paper80" : "paper58")}
              </label>
            ))}
          </div>
          {fieldError("paper")}
        </fieldset>
        <fieldset {...described("charset", id("charset-hint"))}>
          <legend className={LABEL}>{t("charset")}</legend>
          <div className="flex flex-col gap-y-1">
            {(["latin", "gb18030"] as const).map((c) => (
              <label key={c} className={CHOICE}>
                <input type="radio" name="charset" value={c} defaultChecked={(initial?.charset ?? defaultCharset) === c} className={BOX} />
                {t(c === "latin" ? "charsetLatin" : "charsetGb18030")}
              </label>
            ))}
          </div>
          <p id={id("charset-hint")} className={HINT}>
            {t("charsetHint")}
          </p>
          {fieldError("charset")}
        </fieldset>
      </div>

      <p id={id("links-hint")} className={HINT}>
        {t("linksHint")}
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <fieldset {...described("series", id("links-hint"))}>
          <legend className={LABEL}>{t("series")}</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-1">
            {series.map((s) => (
              <label key={s.id} className={CHOICE}>
                <input type="checkbox" name="series" value={s.id} defaultChecked={initial?.series.includes(s.id) ?? false} className={BOX} />
                {s.name}
              </label>
            ))}
          </div>
          {fieldError("series")}
        </fieldset>
        <fieldset {...described("channels", id("links-hint"))}>
          <legend className={LABEL}>{t("channels")}</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-1">
            {CHANNELS.map((c) => (
              <label key={c} className={CHOICE}>
                <input type="checkbox" name="channels" value={c} defaultChecked={initial?.channels.includes(c) ?? false} className={BOX} />
                {ts(`channelNames.${c}`)}
              </label>
            ))}
          </div>
          {fieldError("channels")}
        </fieldset>
      </div>
    </>
  );
}
