"use client";

import { useCallback } from "react";
import { useRouter } from "next/navigation";

/**
 * On `settings:changed`: re-read the screen's data (clear times, kitchen ages) and re-render
 * its server part, so a new default language or name shows without a reload. The refresh
 * follows an event the server just sent, so it is reachable (a refresh that is not falls
 * back to a full page load, which is why screens never refresh otherwise).
 */
export function useSettingsRefresh(reread: () => void): () => void {
  const router = useRouter();
  return useCallback(() => {
    reread();
    router.refresh();
  }, [reread, router]);
}
