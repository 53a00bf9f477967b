"use client";

import { BUTTON } from "./console-styles";

/**
 * The second step of a console action that cannot be undone: the "yes" button takes the focus
 * (Enter confirms, Tab reaches "back"). Without `onYes` the "yes" button submits its form.
 */
export function ConfirmButtons({
  yes,
  back,
  onYes,
  onBack,
  pending = false,
}: {
  yes: string;
  back: string;
  onYes?: () => void;
  onBack: () => void;
  pending?: boolean;
}) {
  return (
    <div className="flex flex-wrap gap-3">
      <button
        type={onYes ? "button" : "submit"}
        autoFocus
        disabled={pending}
        onClick={onYes}
        className={`${BUTTON} bg-amber-700 text-white hover:bg-amber-800 focus-visible:ring-amber-300`}
      >
        {yes}
      </button>
      <button
        type="button"
        onClick={onBack}
        className={`${BUTTON} border-2 border-slate-400 bg-white text-slate-900 hover:bg-slate-100 focus-visible:ring-blue-300`}
      >
        {back}
      </button>
    </div>
  );
}
