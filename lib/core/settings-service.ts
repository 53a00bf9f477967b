/** Reading and changing a restaurant's settings; the rules they follow are in settings.ts. */
import { parseOrThrow } from "./orders";
import type { CacheInvalidator, EventPublisher, SettingsStore } from "./ports";
import { applySettingsUpdate, settingsOf, settingsUpdateSchema, type SettingsField, type TenantSettings } from "./settings";
import type { Tenant } from "./tenants";

export class SettingsService {
  constructor(private readonly deps: { store: SettingsStore; invalidate: CacheInvalidator; events?: Pick<EventPublisher, "settingsChanged"> }) {}

  get(tenant: Tenant): TenantSettings {
    return settingsOf(tenant);
  }

  /** Applies a partial update; nothing changes when any field is bad. */
  async update(tenant: Tenant, input: unknown, actor: string): Promise<{ settings: TenantSettings; changed: SettingsField[] }> {
    const update = parseOrThrow(settingsUpdateSchema, input ?? {}, "settings");
    let changed: SettingsField[] = [];
    const settings = await this.deps.store.update(tenant.id, (current) => {
      const { next, changes } = applySettingsUpdate(current, update);
      changed = Object.keys(changes) as SettingsField[];
      return { next, audit: changed.length ? { actor, action: "settings.update", details: { changes } } : null };
    });
    if (changed.length) {
      await this.deps.invalidate.tenantChanged(tenant.slug);
      this.deps.events?.settingsChanged(tenant);
    }
    return { settings, changed };
  }
}
