/**
 * Rotating a role's sign-in code: a new code (shown once) replaces the old one, and the
 * role's generation goes up so that every session signed before ends.
 */
import { AppError } from "./errors";
import type { StaffRole, Tenant } from "./tenants";
import { roleSchema } from "./api-keys";
import type { CacheInvalidator, StaffCodeStore } from "./ports";

export class StaffCodeService {
  constructor(
    private readonly deps: {
      store: StaffCodeStore;
      generate: () => string;
      hash: (secret: string) => Promise<string>;
      invalidate: CacheInvalidator;
      now?: () => Date;
    },
  ) {}

  /** Parses a role as typed in a URL (any case); BAD_INPUT names `role`. */
  static parseRole(raw: string): StaffRole {
    const r = roleSchema.safeParse(raw);
    if (!r.success)
      throw new AppError("BAD_INPUT", {
        message: `Invalid role "${raw}"`,
        userMessage: `role: ${r.error.issues[0]?.message ?? "unknown role"}`,
        details: { fields: [{ path: "role", message: r.error.issues[0]?.message }] },
      });
    return r.data;
  }

  /** The new code, to be shown once. */
  async rotate(tenant: Tenant, role: StaffRole, actor: string): Promise<{ role: StaffRole; code: string; generation: number }> {
    const code = this.deps.generate();
    const generation = await this.deps.store.rotate(tenant.id, role, await this.deps.hash(code), this.deps.now?.() ?? new Date(), {
      actor,
      action: "staff.rotate",
      details: { role },
    });
    if (generation === null)
      throw new AppError("NOT_FOUND", { message: `No ${role} sign-in in ${tenant.slug}`, userMessage: "This role has no sign-in code in this restaurant." });
    await this.deps.invalidate.staffChanged(tenant.id, role);
    return { role, code, generation };
  }
}
