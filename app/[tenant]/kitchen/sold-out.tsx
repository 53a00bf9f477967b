"use client";

import { useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "@/app/_lib/client-action";
import { tenantForm } from "@/app/_components/use-live-data";
import { FormError } from "@/app/_components/form-error";
import { Icon } from "@/app/_components/icon";
import { readSoldOut, setDishAvailable, type SoldOutCategory, type SoldOutDish } from "./sold-out-actions";
import { SoldOutList } from "./sold-out-list";

const PANEL_ID = "sold-out";

/**
 * The kitchen's "Sold out" button and its panel: the menu by category, each dish one
 * toggle that applies at once (no Save). The menu is read each time the panel opens.
 * Esc or Close folds it and gives focus back to the button.
 */
export function SoldOut({ slug }: { slug: string }) {
  const t = useTranslations("kitchen.soldOut");
  const tErrors = useTranslations("common.errors");
  const [open, setOpen] = useState(false);
  // Just under the button: the kitchen's header (and the open button) stays in sight.
  const [top, setTop] = useState(0);
  const [menu, setMenu] = useState<SoldOutCategory[] | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [said, setSaid] = useState("");
  const [error, setError] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    let current = true;
    void callAction(readSoldOut, null, tenantForm(slug), tErrors("connectionLost"), tErrors("newBuild")).then((r) => {
      if (!current) return;
      if (r?.ok) setMenu(r.data);
      else setError(r?.error ?? tErrors("INTERNAL"));
    });
    return () => {
      current = false;
    };
  }, [open, slug, tErrors]);

  const close = () => {
    setOpen(false);
    setSaid("");
    setError(null);
    button.current?.focus();
  };

  const flip = async (d: SoldOutDish) => {
    if (busy.has(d.id)) return;
    setBusy((s) => new Set(s).add(d.id));
    setError(null);
    const form = tenantForm(slug, { id: d.id, available: String(!d.available) });
    const r = await callAction(setDishAvailable, null, form, tErrors("connectionLost"), tErrors("newBuild"));
    setBusy((s) => {
      const next = new Set(s);
      next.delete(d.id);
      return next;
    });
    if (!r?.ok) {
      setError(r?.error ?? tErrors("INTERNAL"));
      return;
    }
    const now = r.data;
    setMenu((m) => m?.map((c) => ({ ...c, dishes: c.dishes.map((x) => (x.id === now.id ? now : x)) })) ?? m);
    setSaid(t(now.available ? "markedAvailable" : "markedSoldOut", { name: now.name }));
  };

  const soldOut = menu?.reduce((n, c) => n + c.dishes.filter((d) => !d.available).length, 0) ?? 0;

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={PANEL_ID}
        data-testid="sold-out-toggle"
        onClick={() => {
          if (open) return close();
          setTop(Math.round(button.current?.getBoundingClientRect().bottom ?? 0) + 6);
          setOpen(true);
        }}
        className="inline-flex min-h-10 items-center gap-1.5 rounded-lg border-2 border-red-800 bg-white px-3 text-base font-bold text-red-900 hover:bg-red-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500 aria-expanded:bg-red-800 aria-expanded:text-white"
      >
        <Icon name="ban" />
        {t("toggle")}
      </button>
      {open ? (
        <div
          ref={panel}
          id={PANEL_ID}
          role="dialog"
          aria-modal="false"
          aria-labelledby={`${PANEL_ID}-title`}
          aria-describedby={`${PANEL_ID}-hint`}
          tabIndex={-1}
          data-testid="sold-out-panel"
          style={{ top }}
          onKeyDown={(e) => {
            if (e.key !== "Escape") return;
            // The screen's own Esc (let go of the selected ticket) is not this one.
            e.preventDefault();
            e.stopPropagation();
            close();
          }}
          className="fixed inset-x-3 bottom-3 z-40 flex flex-col rounded-xl border-2 border-slate-800 bg-white shadow-2xl focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500"
        >
          <div className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-1 border-b-2 border-slate-200 px-3 py-2">
            <h2 id={`${PANEL_ID}-title`} className="text-2xl leading-tight font-extrabold">
              {t("title")}
            </h2>
            <p className="text-base font-semibold text-slate-700" data-testid="sold-out-count">
              {menu ? t("count", { count: soldOut }) : ""}
            </p>
            <p id={`${PANEL_ID}-hint`} className="text-base text-slate-700">
              {t("hint")}
            </p>
            <p role="status" data-testid="sold-out-status" className="min-w-40 flex-1 text-lg leading-tight font-bold text-emerald-800">
              {said}
            </p>
            <button
              type="button"
              onClick={close}
              className="inline-flex min-h-10 items-center gap-1.5 rounded-lg border-2 border-slate-700 bg-white px-3 text-base font-bold hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500"
            >
              <Icon name="cross" />
              {t("close")}
            </button>
            <FormError message={error} className="basis-full px-2 py-1 text-base leading-tight" />
          </div>
          {menu === null ? (
            <p className="p-3 text-lg text-slate-700">{error ? "" : t("loading")}</p>
          ) : menu.length === 0 ? (
            <p className="p-3 text-lg text-slate-700">{t("empty")}</p>
          ) : (
            <SoldOutList menu={menu} busy={busy} onFlip={(d) => void flip(d)} />
          )}
        </div>
      ) : null}
    </>
  );
}
