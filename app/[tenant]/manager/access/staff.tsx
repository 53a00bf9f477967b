"use client";

import { useEffect, useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { STAFF_ROLES, type StaffRole } from "@/lib/core/tenants";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { addPerson, setSharedCodes, updatePerson } from "./actions";
import { BUTTON, INPUT } from "../_components/console-styles";
import { ConfirmButtons } from "../_components/confirm-buttons";
import { useFreshError } from "../_components/use-fresh-error";
import { ColumnHeads } from "../_components/column-heads";

/** A person as the console lists them: never anything of the PIN. */
export interface PersonRow {
  id: string;
  name: string;
  role: StaffRole;
  active: boolean;
}

type Editing = { id: string; what: "pin" | "role" | "letGo" | "takeBack" };

const PIN_INPUT = { type: "password", inputMode: "numeric", autoComplete: "off", maxLength: 8 } as const;
const SMALL = "rounded-lg px-3 py-2 text-base font-semibold focus:outline-none focus-visible:ring-4 disabled:cursor-wait disabled:opacity-60";
const PLAIN = `${SMALL} border-2 border-slate-400 bg-white text-slate-900 hover:bg-slate-100 focus-visible:ring-blue-300`;
const DARK = `${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`;

/** The restaurant's people: add one, change a PIN or role, let go and take back; and whether shared codes still sign in. */
export function Staff({ slug, people, sharedCodes }: { slug: string; people: PersonRow[]; sharedCodes: boolean }) {
  const t = useTranslations("managerAccess.people");
  return (
    <div className="space-y-6">
      <AddPerson slug={slug} />
      {people.length === 0 ? <p className="text-lg text-slate-700">{t("none")}</p> : <People slug={slug} people={people} />}
      <SharedCodes slug={slug} on={sharedCodes} />
    </div>
  );
}

/** A field's error, beside the field it is about (`field`), or below the form when it names none. */
function errorFor(state: { ok: true } | { ok: false; error: string; field?: string } | null, message: string | null, field: string, fields: readonly string[]) {
  if (!message || !state || state.ok) return null;
  const named = state.field && fields.includes(state.field) ? state.field : null;
  return field === "" ? (named ? null : message) : named === field ? message : null;
}

function AddPerson({ slug }: { slug: string }) {
  const t = useTranslations("managerAccess");
  const tp = useTranslations("managerAccess.people");
  const [state, dispatch, pending] = useStaffAction(addPerson);
  const [message, clear] = useFreshError(state);
  const fields = ["name", "pin"] as const;
  const nameError = errorFor(state, message, "name", fields);
  const pinError = errorFor(state, message, "pin", fields);
  return (
    <div className="space-y-3">
      {/* A new person empties the form (a new form), ready for the next one. */}
      <form
        key={state?.ok ? `${state.data.name}-added` : "new"}
        onSubmit={submitTo(dispatch)}
        onInput={clear}
        aria-labelledby="add-person-heading"
        noValidate
        className="grid gap-4 rounded-xl border-2 border-slate-300 bg-white p-4 md:grid-cols-[1fr_12rem_12rem_auto] md:items-start"
      >
        <h3 id="add-person-heading" className="text-xl font-bold md:col-span-4">
          {tp("add")}
        </h3>
        <input type="hidden" name="tenant" value={slug} />
        <div>
          <label htmlFor="person-name" className="mb-1 block text-lg font-semibold">
            {tp("name")}
          </label>
          <input
            id="person-name"
            name="name"
            required
            maxLength={60}
            autoComplete="off"
            placeholder={tp("namePlaceholder")}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "person-name-error" : undefined}
            className={INPUT}
          />
          <FormError id="person-name-error" message={nameError} className="mt-2 px-3 py-2 text-base" />
        </div>
        <div>
          <label htmlFor="person-role" className="mb-1 block text-lg font-semibold">
            {tp("role")}
          </label>
          <select id="person-role" name="role" defaultValue="KITCHEN" className={INPUT}>
            {STAFF_ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`roles.${r}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="person-pin" className="mb-1 block text-lg font-semibold">
            {tp("pin")}
          </label>
          <input
            id="person-pin"
            name="pin"
            {...PIN_INPUT}
            required
            aria-invalid={pinError ? true : undefined}
            aria-describedby={pinError ? "person-pin-error person-pin-hint" : "person-pin-hint"}
            className={`${INPUT} tracking-widest`}
          />
          <FormError id="person-pin-error" message={pinError} className="mt-2 px-3 py-2 text-base" />
        </div>
        <button type="submit" disabled={pending} className={`${DARK} md:mt-9`}>
          {pending ? tp("adding") : tp("add")}
        </button>
        <p id="person-pin-hint" className="text-base text-slate-600 md:col-span-4">
          {tp("pinHint")}
        </p>
      </form>
      <FormError message={errorFor(state, message, "", fields)} />
      <LiveNote token={state} testId="person-added">
        {state?.ok ? tp("added", { name: state.data.name, role: t(`roles.${state.data.role}`) }) : null}
      </LiveNote>
    </div>
  );
}

function People({ slug, people }: { slug: string; people: PersonRow[] }) {
  const t = useTranslations("managerAccess");
  const tp = useTranslations("managerAccess.people");
  const [state, dispatch, pending] = useStaffAction(updatePerson);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [message, clear] = useFreshError(state);
  // A change that went through closes its editor; a refusal keeps it open, with the reason beside its field.
  const [seen, setSeen] = useState(state);
  if (state !== seen) {
    setSeen(state);
    if (state?.ok) setEditing(null);
  }
  const open = (e: Editing | null) => {
    clear();
    setEditing(e);
  };
  const send = (fields: Record<string, string>) => dispatchFields(dispatch, { tenant: slug, ...fields });

  const done = state?.ok ? state.data : null;
  const note = !done
    ? null
    : done.change === "pin"
      ? tp("pinChanged", { name: done.name })
      : done.change === "role"
        ? tp("roleChanged", { name: done.name, role: t(`roles.${done.role}`) })
        : done.active
          ? tp("tookBack", { name: done.name })
          : tp("wentAway", { name: done.name });

  return (
    <div className="space-y-3">
      <LiveNote token={state} testId="person-changed">
        {note}
      </LiveNote>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left text-base">
          <ColumnHeads labels={(["name", "role", "status", "actions"] as const).map((c) => tp(`table.${c}`))} />
          <tbody>
            {people.map((p) => {
              const mine = editing?.id === p.id ? editing.what : null;
              const error = mine ? message : null;
              return (
                <PersonRowView
                  key={p.id}
                  person={p}
                  editing={mine}
                  error={error}
                  pending={pending}
                  onOpen={(what) => open(what ? { id: p.id, what } : null)}
                  onTakeBack={() => {
                    open({ id: p.id, what: "takeBack" });
                    send({ id: p.id, active: "true" });
                  }}
                >
                  {mine === "pin" ? (
                    <form onSubmit={submitTo(dispatch)} onInput={clear} noValidate className="flex flex-wrap items-end gap-3">
                      <input type="hidden" name="tenant" value={slug} />
                      <input type="hidden" name="id" value={p.id} />
                      <div className="w-56">
                        <label htmlFor={`pin-${p.id}`} className="mb-1 block text-lg font-semibold">
                          {tp("changePinOf", { name: p.name })}
                        </label>
                        <input
                          id={`pin-${p.id}`}
                          name="pin"
                          {...PIN_INPUT}
                          autoFocus
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `edit-error-${p.id}` : undefined}
                          className={`${INPUT} tracking-widest`}
                        />
                      </div>
                      <button type="submit" disabled={pending} className={DARK}>
                        {pending ? tp("saving") : tp("save")}
                      </button>
                      <button
                        type="button"
                        onClick={() => open(null)}
                        className={`${BUTTON} border-2 border-slate-400 bg-white hover:bg-slate-100 focus-visible:ring-blue-300`}
                      >
                        {tp("cancel")}
                      </button>
                    </form>
                  ) : mine === "role" ? (
                    <form onSubmit={submitTo(dispatch)} onInput={clear} className="flex flex-wrap items-end gap-3">
                      <input type="hidden" name="tenant" value={slug} />
                      <input type="hidden" name="id" value={p.id} />
                      <div className="w-56">
                        <label htmlFor={`role-${p.id}`} className="mb-1 block text-lg font-semibold">
                          {tp("changeRoleOf", { name: p.name })}
                        </label>
                        <select
                          id={`role-${p.id}`}
                          name="role"
                          defaultValue={p.role}
                          autoFocus
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `edit-error-${p.id}` : undefined}
                          className={INPUT}
                        >
                          {STAFF_ROLES.map((r) => (
                            <option key={r} value={r}>
                              {t(`roles.${r}`)}
                            </option>
                          ))}
                        </select>
                      </div>
                      <button type="submit" disabled={pending} className={DARK}>
                        {pending ? tp("saving") : tp("save")}
                      </button>
                      <button
                        type="button"
                        onClick={() => open(null)}
                        className={`${BUTTON} border-2 border-slate-400 bg-white hover:bg-slate-100 focus-visible:ring-blue-300`}
                      >
                        {tp("cancel")}
                      </button>
                    </form>
                  ) : mine === "letGo" ? (
                    <div role="group" aria-label={tp("letGo")} className="space-y-3 rounded-xl border-2 border-amber-600 bg-amber-50 p-3">
                      <p className="text-lg font-semibold text-amber-950">{tp("letGoConfirm", { name: p.name })}</p>
                      <ConfirmButtons
                        yes={tp("letGoYes", { name: p.name })}
                        back={tp("back")}
                        pending={pending}
                        onYes={() => send({ id: p.id, active: "false" })}
                        onBack={() => open(null)}
                      />
                    </div>
                  ) : null}
                </PersonRowView>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function PersonRowView({
  person: p,
  editing: mine,
  error,
  pending: busy,
  onOpen,
  onTakeBack,
  children,
}: {
  person: PersonRow;
  editing: Editing["what"] | null;
  error: string | null;
  pending: boolean;
  onOpen: (what: Editing["what"] | null) => void;
  onTakeBack: () => void;
  children: ReactNode;
}) {
  const t = useTranslations("managerAccess");
  const tp = useTranslations("managerAccess.people");
  return (
    <>
      <tr data-testid={`person-${p.name}`} className={mine && mine !== "takeBack" ? "bg-slate-50" : "border-b border-slate-200"}>
        <td className="px-2 py-3 text-lg font-semibold">{p.name}</td>
        <td className="px-2 py-3">{t(`roles.${p.role}`)}</td>
        <td className="px-2 py-3">
          {p.active ? <span className="font-semibold text-emerald-800">{tp("active")}</span> : <span className="text-slate-600">{tp("inactive")}</span>}
        </td>
        <td className="px-2 py-3">
          <div className="flex flex-wrap gap-2">
            {p.active ? (
              <>
                <button type="button" aria-expanded={mine === "pin"} onClick={() => onOpen(mine === "pin" ? null : "pin")} className={PLAIN}>
                  {tp("changePin")}
                </button>
                <button type="button" aria-expanded={mine === "role"} onClick={() => onOpen(mine === "role" ? null : "role")} className={PLAIN}>
                  {tp("changeRole")}
                </button>
                <button
                  type="button"
                  aria-expanded={mine === "letGo"}
                  onClick={() => onOpen(mine === "letGo" ? null : "letGo")}
                  className={`${SMALL} border-2 border-red-700 bg-white text-red-800 hover:bg-red-50 focus-visible:ring-red-300`}
                >
                  {tp("letGo")}
                </button>
              </>
            ) : (
              <button type="button" disabled={busy} onClick={onTakeBack} className={PLAIN}>
                {tp("takeBack")}
              </button>
            )}
          </div>
        </td>
      </tr>
      {mine ? (
        <tr className="border-b border-slate-200 bg-slate-50">
          <td colSpan={4} className="space-y-3 px-2 pb-4">
            {children}
            <FormError id={`edit-error-${p.id}`} message={error} className="px-3 py-2 text-base" />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function SharedCodes({ slug, on }: { slug: string; on: boolean }) {
  const tp = useTranslations("managerAccess.people");
  const [state, dispatch, pending] = useStaffAction(setSharedCodes);
  const [confirming, setConfirming] = useState(false);
  const [message, clear] = useFreshError(state);
  const set = (value: boolean) => {
    setConfirming(false);
    dispatchFields(dispatch, { tenant: slug, sharedCodes: String(value) });
  };
  return (
    <div className="space-y-3 rounded-xl border-2 border-slate-300 bg-white p-4">
      <h3 className="text-xl font-bold">{tp("sharedHeading")}</h3>
      <label className="flex items-start gap-3 text-lg font-semibold">
        <input
          type="checkbox"
          checked={on && !confirming}
          disabled={pending}
          onChange={(e) => {
            clear();
            if (e.target.checked) set(true);
            else setConfirming(true);
          }}
          aria-describedby={message ? "shared-codes-hint shared-codes-error" : "shared-codes-hint"}
          className="mt-1 size-6 accent-blue-700 focus-visible:ring-4 focus-visible:ring-blue-300"
        />
        {tp("sharedLabel")}
      </label>
      <p id="shared-codes-hint" className="text-base text-slate-700">
        {tp("sharedHint")}
      </p>
      {confirming ? (
        <div role="group" aria-label={tp("sharedLabel")} className="space-y-3 rounded-xl border-2 border-amber-600 bg-amber-50 p-3">
          <p className="text-lg font-semibold text-amber-950">{tp("sharedOffConfirm")}</p>
          <ConfirmButtons yes={tp("sharedOffYes")} back={tp("back")} onYes={() => set(false)} onBack={() => setConfirming(false)} />
        </div>
      ) : null}
      <FormError id="shared-codes-error" message={message} className="px-3 py-2 text-base" />
      <LiveNote token={state} testId="shared-codes-changed">
        {state?.ok ? tp(state.data.sharedCodes ? "sharedOn" : "sharedOff") : null}
      </LiveNote>
    </div>
  );
}

/** How long a confirmation stays on screen. */
const FADE_MS = 6_000;

/**
 * What an action here did, for a few seconds, in a polite live region that stays in the page
 * (so that each new one is announced). Like the console's StatusNote, without its status role:
 * the page keeps one status region, the API keys' note.
 */
function LiveNote({ children, testId, token }: { children: ReactNode; testId?: string; token: unknown }) {
  const [shownFor, setShownFor] = useState<unknown>(token);
  const [faded, setFaded] = useState(false);
  if (shownFor !== token) {
    setShownFor(token);
    setFaded(false);
  }
  const visible = !faded && children !== null && children !== undefined;
  useEffect(() => {
    if (!visible) return;
    const t = setTimeout(() => setFaded(true), FADE_MS);
    return () => clearTimeout(t);
  }, [visible, shownFor]);
  return (
    <div aria-live="polite" aria-atomic="true">
      {visible ? (
        <p data-testid={testId} className="rounded-lg border-2 border-emerald-700 bg-emerald-50 px-4 py-3 text-lg font-medium text-emerald-900">
          {children}
        </p>
      ) : null}
    </div>
  );
}
