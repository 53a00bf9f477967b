import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** The serious and critical WCAG 2.1 AA violations axe finds on the page as it is now, in a readable shape. */
export async function seriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
}

/** Fails with `what` and axe's findings when the page has a serious or critical violation. */
export async function expectNoSeriousAxe(page: Page, what: string) {
  expect(await seriousAxeViolations(page), what).toEqual([]);
}
