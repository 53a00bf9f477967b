/** Where the menu is kept, and what the order service reads of it. */
import type { CategoryPatch, ItemPatch, MenuCategory, MenuItem, OrderableItem, SeedMenu } from "../menu";
import type { OptionGroup } from "../menu-options";

/** Raised by a MenuRepository when a unique index refuses a name. */
export class DuplicateMenuNameError extends Error {
  constructor(
    readonly kind: "category" | "item",
    readonly value: string,
  ) {
    super(`Duplicate ${kind} name ${value}`);
    this.name = "DuplicateMenuNameError";
  }
}

/** What the order service needs of the menu: the tenant's items among some ids, each with its category's station. */
export interface MenuCatalog {
  findItems(tenantId: string, ids: readonly string[]): Promise<OrderableItem[]>;
}

export interface MenuRepository extends MenuCatalog {
  listCategories(tenantId: string): Promise<MenuCategory[]>;
  listItems(tenantId: string, categoryId?: string): Promise<MenuItem[]>;
  findCategory(tenantId: string, id: string): Promise<MenuCategory | null>;
  createCategory(tenantId: string, c: Omit<MenuCategory, "id">): Promise<MenuCategory>;
  /** null when there is no such category of the tenant. */
  updateCategory(tenantId: string, id: string, patch: CategoryPatch): Promise<MenuCategory | null>;
  /**
   * Deletes a category in one transaction: refused (nothing deleted) when it has items and
   * `cascade` is false. `items` counts the items it had.
   */
  deleteCategory(tenantId: string, id: string, cascade: boolean): Promise<{ deleted: boolean; items: number }>;
  createItem(tenantId: string, i: Omit<MenuItem, "id">): Promise<MenuItem>;
  updateItem(tenantId: string, id: string, patch: ItemPatch): Promise<MenuItem | null>;
  deleteItem(tenantId: string, id: string): Promise<boolean>;
  /**
   * Sets `available` alone, in one UPDATE that changes the row only when it differs (the
   * other columns are left as they are: a concurrent rename is kept). `changed`: this call
   * made the change; null when there is no such item of the tenant.
   */
  setAvailable(tenantId: string, id: string, available: boolean): Promise<{ item: MenuItem; changed: boolean } | null>;
  /** Sets several positions in one transaction (a move up/down). */
  setPositions(tenantId: string, kind: "category" | "item", positions: readonly { id: string; position: number }[]): Promise<void>;
  /** Creates a whole menu in one transaction, only if the tenant has no category yet; false when it had one. */
  seedIfEmpty(tenantId: string, menu: readonly SeedMenu<OptionGroup>[]): Promise<boolean>;
}
