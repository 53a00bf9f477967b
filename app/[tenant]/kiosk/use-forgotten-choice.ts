"use client";

import { useCallback, useEffect, useState } from "react";

/**
 * A device's remembered choice (its series, its printer) that the restaurant removed since:
 * `missing` names it; it is forgotten (`remember(null)`) and `gone` keeps its name on screen
 * until someone chooses again through `choose`.
 */
export function useForgottenChoice<C>(missing: string | null, remember: (choice: C | null) => void) {
  const [gone, setGone] = useState<string | null>(null);
  if (missing !== null && gone !== missing) setGone(missing);
  useEffect(() => {
    if (missing !== null) remember(null);
  }, [missing, remember]);
  const choose = useCallback(
    (choice: C | null) => {
      setGone(null);
      remember(choice);
    },
    [remember],
  );
  return { gone, choose };
}
