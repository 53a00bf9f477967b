"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { STAFF_ROLES } from "@/lib/core/tenants";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { addPerson, setSharedCodes } from "./actions";
import { INPUT } from "../_components/console-styles";
import { ConfirmButtons } from "../_components/confirm-buttons";
import { useFreshError } from "../_components/use-fresh-error";
import { People } from "./staff-list";
import { DARK, LiveNote, PIN_INPUT, errorFor, type PersonRow } from "./staff-parts";

export type { PersonRow } from "./staff-parts";

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
