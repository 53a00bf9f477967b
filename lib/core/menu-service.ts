/**
 * Editing the menu (manager) and reading it (kiosk, POS): every id is looked up within the
 * caller's tenant (404 otherwise), names are unique per category (409), and every change
 * writes a `menu.update` audit entry (`menu.available` for a dish sold out or back).
 */
import { isUuid } from "./ids";
import { AppError } from "./errors";
import { parseOrThrow } from "./orders";
import type { AuditAction } from "./audit";
import { type EventPublisher, type Logger, type AuditLog, DuplicateMenuNameError, type MenuRepository } from "./ports";
import type { Tenant } from "./tenants";
import {
  availabilitySchema,
  categoryPatchSchema,
  groupMenu,
  itemPatchSchema,
  moveWithin,
  newCategorySchema,
  newItemSchema,
  nextPosition,
  sameName,
  byPosition,
  type MenuCategory,
  type MenuItem,
  type MenuSection,
  type SeedMenu,
} from "./menu";
import { optionGroupsSchema } from "./menu-options";

function notFound(kind: "category" | "item", id: string, tenant: Tenant): AppError {
  return new AppError("NOT_FOUND", {
    message: `No menu ${kind} ${id} for ${tenant.slug}`,
    userMessage: kind === "category" ? "Menu category not found." : "Menu item not found.",
    reason: kind === "category" ? "menuCategoryNotFound" : "menuItemNotFound",
  });
}

function duplicate(kind: "category" | "item", name: string): AppError {
  return new AppError("CONFLICT", {
    message: `name: a ${kind} named ${name} already exists`,
    userMessage: kind === "category" ? `name: there is already a category named "${name}".` : `name: this category already has an item named "${name}".`,
    reason: kind === "category" ? "duplicateCategory" : "duplicateItem",
    details: { name, fields: [{ path: "name", message: "Already used" }] },
  });
}

/**
 * A stationId in a body: one of the restaurant's live stations, or null (none of its own).
 * Unknown is 400 naming the field: a line must never be routed to a screen no one has.
 */
function stationField(tenant: Tenant, id: string | null | undefined): string | null {
  if (id === undefined || id === null) return null;
  if ((tenant.stations ?? []).some((s) => s.id === id)) return id;
  const message = "No such station: choose one of the restaurant's stations, or null for none";
  throw new AppError("BAD_INPUT", {
    message: `stationId: ${message}`,
    userMessage: `stationId: ${message}.`,
    reason: "unknownStation",
    details: { fields: [{ path: "stationId", message }] },
  });
}

export class MenuService {
  constructor(private readonly deps: { menu: MenuRepository; audit: AuditLog; log: Logger; events?: Pick<EventPublisher, "menuChanged"> }) {}

  /** Categories in order with their items in order (all of them, `available` says which are offered). */
  async menu(tenant: Tenant): Promise<MenuSection[]> {
    const [categories, items] = await Promise.all([this.deps.menu.listCategories(tenant.id), this.deps.menu.listItems(tenant.id)]);
    return groupMenu(categories, items);
  }

  async categories(tenant: Tenant): Promise<MenuCategory[]> {
    return (await this.deps.menu.listCategories(tenant.id)).sort(byPosition);
  }

  async items(tenant: Tenant, categoryId?: string): Promise<MenuItem[]> {
    if (categoryId !== undefined) await this.category(tenant, categoryId);
    const items = await this.deps.menu.listItems(tenant.id, categoryId);
    // Grouped like the kiosk shows them: by category order, then item order.
    const order = new Map((await this.deps.menu.listCategories(tenant.id)).sort(byPosition).map((c, i) => [c.id, i]));
    return items.sort((a, b) => (order.get(a.categoryId) ?? 0) - (order.get(b.categoryId) ?? 0) || byPosition(a, b));
  }

  async category(tenant: Tenant, id: string): Promise<MenuCategory> {
    const c = isUuid(id) ? await this.deps.menu.findCategory(tenant.id, id) : null;
    if (!c) throw notFound("category", id, tenant);
    return c;
  }

  async item(tenant: Tenant, id: string): Promise<MenuItem> {
    const [i] = isUuid(id) ? await this.deps.menu.findItems(tenant.id, [id]) : [];
    if (!i) throw notFound("item", id, tenant);
    return i;
  }

  async createCategory(tenant: Tenant, input: unknown, actor: string): Promise<MenuCategory> {
    const data = parseOrThrow(newCategorySchema, input ?? {}, "category");
    const siblings = await this.deps.menu.listCategories(tenant.id);
    if (siblings.some((c) => sameName(c.name, data.name))) throw duplicate("category", data.name);
    const stationId = stationField(tenant, data.stationId);
    const created = await this.unique("category", data.name, () =>
      this.deps.menu.createCategory(tenant.id, {
        name: data.name,
        position: data.position ?? nextPosition(siblings),
        stationId,
        optionGroups: data.optionGroups ?? [],
      }),
    );
    await this.audit(tenant, actor, { change: "category.create", categoryId: created.id, name: created.name });
    return created;
  }

  async updateCategory(tenant: Tenant, id: string, input: unknown, actor: string): Promise<MenuCategory> {
    const before = await this.category(tenant, id);
    const patch = parseOrThrow(categoryPatchSchema, input ?? {}, "category");
    if (patch.stationId !== undefined) stationField(tenant, patch.stationId);
    if (patch.name !== undefined) {
      const siblings = await this.deps.menu.listCategories(tenant.id);
      if (siblings.some((c) => c.id !== id && sameName(c.name, patch.name!))) throw duplicate("category", patch.name);
    }
    const after = await this.unique("category", patch.name ?? "", () => this.deps.menu.updateCategory(tenant.id, id, patch));
    if (!after) throw notFound("category", id, tenant);
    const diff = changes(before, after, ["name", "position", "stationId", "optionGroups"]);
    if (diff.from) await this.audit(tenant, actor, { change: "category.update", categoryId: id, name: after.name, ...diff });
    return after;
  }

  /** Refused (409) while the category has items, unless `cascade`: then its items go too. */
  async deleteCategory(tenant: Tenant, id: string, cascade: boolean, actor: string): Promise<{ items: number }> {
    const category = await this.category(tenant, id);
    const { deleted, items } = await this.deps.menu.deleteCategory(tenant.id, id, cascade);
    if (!deleted && items > 0) {
      throw new AppError("CONFLICT", {
        message: `Category ${category.name} still has ${items} items`,
        userMessage: `"${category.name}" still has ${items} item(s): delete them first, or delete the category with its items (cascade=true).`,
        reason: "categoryNotEmpty",
        details: { name: category.name, count: items },
      });
    }
    if (!deleted) throw notFound("category", id, tenant);
    await this.audit(tenant, actor, { change: "category.delete", categoryId: id, name: category.name, itemsDeleted: items });
    return { items };
  }

  async moveCategory(tenant: Tenant, id: string, direction: "up" | "down", actor: string): Promise<void> {
    const category = await this.category(tenant, id);
    const moves = moveWithin(await this.deps.menu.listCategories(tenant.id), id, direction);
    if (moves.length === 0) return;
    await this.deps.menu.setPositions(tenant.id, "category", moves);
    await this.audit(tenant, actor, { change: "category.move", categoryId: id, name: category.name, direction });
  }

  async createItem(tenant: Tenant, input: unknown, actor: string): Promise<MenuItem> {
    const data = parseOrThrow(newItemSchema, input ?? {}, "menu item");
    const category = await this.categoryField(tenant, data.categoryId);
    const siblings = await this.deps.menu.listItems(tenant.id, category.id);
    if (siblings.some((i) => sameName(i.name, data.name))) throw duplicate("item", data.name);
    const created = await this.unique("item", data.name, () =>
      this.deps.menu.createItem(tenant.id, {
        categoryId: category.id,
        name: data.name,
        priceCents: data.priceCents ?? null,
        available: data.available ?? true,
        position: data.position ?? nextPosition(siblings),
        stationId: stationField(tenant, data.stationId),
        optionGroups: data.optionGroups ?? [],
      }),
    );
    await this.audit(tenant, actor, {
      change: "item.create",
      itemId: created.id,
      name: created.name,
      categoryId: category.id,
      category: category.name,
      priceCents: created.priceCents,
      available: created.available,
    });
    return created;
  }

  async updateItem(tenant: Tenant, id: string, input: unknown, actor: string): Promise<MenuItem> {
    const before = await this.item(tenant, id);
    const patch = parseOrThrow(itemPatchSchema, input ?? {}, "menu item");
    const categoryId = patch.categoryId ?? before.categoryId;
    if (patch.categoryId !== undefined) await this.categoryField(tenant, patch.categoryId);
    if (patch.stationId !== undefined) stationField(tenant, patch.stationId);
    const name = patch.name ?? before.name;
    if (patch.name !== undefined || patch.categoryId !== undefined) {
      const siblings = await this.deps.menu.listItems(tenant.id, categoryId);
      if (siblings.some((i) => i.id !== id && sameName(i.name, name))) throw duplicate("item", name);
    }
    // Moved to another category without a position: it goes last there.
    const position =
      patch.position ??
      (patch.categoryId !== undefined && patch.categoryId !== before.categoryId
        ? nextPosition(await this.deps.menu.listItems(tenant.id, categoryId))
        : undefined);
    const after = await this.unique("item", name, () =>
      this.deps.menu.updateItem(tenant.id, id, { ...patch, ...(position !== undefined ? { position } : {}) }),
    );
    if (!after) throw notFound("item", id, tenant);
    const diff = changes(before, after, ["name", "priceCents", "available", "position", "categoryId", "stationId", "optionGroups"]);
    // A Save that changed nothing leaves no audit line.
    if (diff.from) await this.audit(tenant, actor, { change: "item.update", itemId: id, name: after.name, ...diff });
    return after;
  }

  /**
   * Sold out or back (the kitchen's tap, or an integration): `available` alone is written,
   * so a manager's edit of the same dish meanwhile is kept. Setting what it already is
   * changes nothing and leaves no audit line.
   */
  async setAvailable(tenant: Tenant, id: string, input: unknown, actor: string): Promise<MenuItem> {
    const { available } = parseOrThrow(availabilitySchema, input ?? {}, "menu item");
    const done = isUuid(id) ? await this.deps.menu.setAvailable(tenant.id, id, available) : null;
    if (!done) throw notFound("item", id, tenant);
    if (done.changed) await this.audit(tenant, actor, { itemId: id, name: done.item.name, available }, "menu.available");
    return done.item;
  }

  async deleteItem(tenant: Tenant, id: string, actor: string): Promise<void> {
    const item = await this.item(tenant, id);
    if (!(await this.deps.menu.deleteItem(tenant.id, id))) throw notFound("item", id, tenant);
    await this.audit(tenant, actor, { change: "item.delete", itemId: id, name: item.name, categoryId: item.categoryId });
  }

  async moveItem(tenant: Tenant, id: string, direction: "up" | "down", actor: string): Promise<void> {
    const item = await this.item(tenant, id);
    const moves = moveWithin(await this.deps.menu.listItems(tenant.id, item.categoryId), id, direction);
    if (moves.length === 0) return;
    await this.deps.menu.setPositions(tenant.id, "item", moves);
    await this.audit(tenant, actor, { change: "item.move", itemId: id, name: item.name, direction });
  }

  /** A small starting menu for a tenant that has none (the demo restaurant). */
  async seedIfEmpty(tenant: Tenant, menu: readonly SeedMenu[], actor: string): Promise<boolean> {
    const groups = (g: readonly unknown[] | undefined) => parseOrThrow(optionGroupsSchema, g ?? [], "option groups");
    const checked = menu.map((c) => ({
      ...c,
      optionGroups: groups(c.optionGroups),
      items: c.items.map((i) => ({ ...i, optionGroups: groups(i.optionGroups) })),
    }));
    const created = await this.deps.menu.seedIfEmpty(tenant.id, checked);
    if (created) await this.audit(tenant, actor, { change: "menu.seed", categories: menu.map((c) => c.name) });
    return created;
  }

  /** A categoryId in a body: unknown is 404 like an id in the path (the caller cannot tell another tenant's from none). */
  private async categoryField(tenant: Tenant, id: string): Promise<MenuCategory> {
    return this.category(tenant, id);
  }

  /** Runs a write; a unique index refusing the name (a race past the check above) is the same 409. */
  private async unique<T>(kind: "category" | "item", name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (e instanceof DuplicateMenuNameError) throw duplicate(kind, name || e.value);
      throw e;
    }
  }

  /** Every change of the menu ends here: audited, and announced to the open kiosks. */
  private async audit(tenant: Tenant, actor: string, details: Record<string, unknown>, action: AuditAction = "menu.update"): Promise<void> {
    this.deps.events?.menuChanged(tenant);
    // The change is made; a lost audit line is logged rather than failing the manager's edit.
    await this.deps.audit
      .record(tenant.id, { actor, action, details })
      .catch((e: unknown) =>
        this.deps.log.error({ tenant: tenant.slug, err: e instanceof Error ? e.message : String(e) }, "could not write the audit entry of a menu change"),
      );
  }
}

/** `{from: {...}, to: {...}}` of the fields that changed. */
function changes<T extends object>(before: T, after: T, keys: readonly (keyof T)[]): { from?: Partial<T>; to?: Partial<T> } {
  // Option groups are arrays: compared by content (the audit names them only when they changed).
  const same = (a: unknown, b: unknown) => a === b || (typeof a === "object" && JSON.stringify(a) === JSON.stringify(b));
  const changed = keys.filter((k) => !same(before[k], after[k]));
  if (changed.length === 0) return {};
  return {
    from: Object.fromEntries(changed.map((k) => [k, before[k]])) as Partial<T>,
    to: Object.fromEntries(changed.map((k) => [k, after[k]])) as Partial<T>,
  };
}
