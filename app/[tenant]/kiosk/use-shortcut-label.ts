"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};
const apple = () => {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  return /mac|iphone|ipad|ipod/i.test(nav.userAgentData?.platform ?? nav.platform ?? "");
};

/** Apple keyboards say ⌘+Enter, others Ctrl+Enter; the server renders Ctrl so its HTML and the first render agree. */
export function useIsApple(): boolean {
  return useSyncExternalStore(never, apple, () => false);
}
