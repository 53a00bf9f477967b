import type { ReactNode } from "react";

/** What a console action did, announced to screen readers. */
export function StatusNote({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p role="status" data-testid={testId} className="rounded-lg border-2 border-emerald-700 bg-emerald-50 px-4 py-3 text-lg font-medium text-emerald-900">
      {children}
    </p>
  );
}
