import type { StaffRole } from "@/lib/core/tenants";

/** A manager may do everything; other roles only what names them. */
export function roleAllows(role: StaffRole, allowed: readonly StaffRole[]): boolean {
  return role === "MANAGER" || allowed.includes(role);
}

export const ROLE_LABEL: Record<StaffRole, string> = { MANAGER: "Manager", CASHIER: "Cashier", KITCHEN: "Kitchen" };

/** The page each role lands on after signing in. */
export const ROLE_HOME: Record<StaffRole, string> = { MANAGER: "manager", CASHIER: "kiosk", KITCHEN: "kitchen" };
