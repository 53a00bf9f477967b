"use client";

/** The console's list of people, each with its editors: a new PIN, another role, let go, take back. */
import { useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { STAFF_ROLES } from "@/lib/core/tenants";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { updatePerson } from "./actions";
import { INPUT } from "../_components/console-styles";
import { ConfirmButtons } from "../_components/confirm-buttons";
import { useFreshError } from "../_components/use-fresh-error";
import { ColumnHeads } from "../_components/column-heads";
import { LiveNote, PIN_INPUT, PLAIN, SaveOrCancel, SMALL, type PersonRow } from "./staff-parts";

type Editing = { id: string; what: "pin" | "role" | "letGo" | "takeBack" };

export function People({ slug, people }: { slug: string; people: PersonRow[] }) {
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
                      <SaveOrCancel pending={pending} onCancel={() => open(null)} />
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
                      <SaveOrCancel pending={pending} onCancel={() => open(null)} />
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
