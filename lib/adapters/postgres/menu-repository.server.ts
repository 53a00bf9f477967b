/** The menu in PostgreSQL (tables MenuCategory, MenuItem); every query is scoped to one tenant. */
import type { CategoryPatch, ItemPatch, MenuCategory, MenuItem, OrderableItem, SeedMenu } from "@/lib/core/menu";
import { DuplicateMenuNameError, type MenuRepository } from "@/lib/core/ports";
import { toOptionGroups, type OptionGroup } from "@/lib/core/menu-options";
import { Prisma, type Db } from "./prisma.server";
import { uniqueViolationOn } from "./rows.server";

type CategoryRow = { id: string; name: string; position: number; stationId: string | null; optionGroups: unknown };
type ItemRow = {
  id: string;
  categoryId: string;
  name: string;
  priceCents: number | null;
  available: boolean;
  position: number;
  stationId: string | null;
  optionGroups: unknown;
};

/** Option groups as a jsonb column takes them. */
const groupsJson = <T extends { optionGroups?: unknown }>(o: T) =>
  o.optionGroups === undefined ? (o as Omit<T, "optionGroups">) : { ...o, optionGroups: o.optionGroups as Prisma.InputJsonValue };

const toCategory = (r: CategoryRow): MenuCategory => ({
  id: r.id,
  name: r.name,
  position: r.position,
  stationId: r.stationId,
  optionGroups: toOptionGroups(r.optionGroups),
});
const toItem = (r: ItemRow): MenuItem => ({
  id: r.id,
  categoryId: r.categoryId,
  name: r.name,
  priceCents: r.priceCents,
  available: r.available,
  position: r.position,
  stationId: r.stationId,
  optionGroups: toOptionGroups(r.optionGroups),
});

/** A unique index refusing a name becomes DuplicateMenuNameError. */
async function named<T>(kind: "category" | "item", name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (uniqueViolationOn(e) !== null) throw new DuplicateMenuNameError(kind, name);
    throw e;
  }
}

export class PrismaMenuRepository implements MenuRepository {
  constructor(private readonly db: Db) {}

  async listCategories(tenantId: string): Promise<MenuCategory[]> {
    return (await this.db.menuCategory.findMany({ where: { tenantId }, orderBy: [{ position: "asc" }, { name: "asc" }] })).map(toCategory);
  }

  async listItems(tenantId: string, categoryId?: string): Promise<MenuItem[]> {
    const rows = await this.db.menuItem.findMany({
      where: { tenantId, ...(categoryId ? { categoryId } : {}) },
      orderBy: [{ position: "asc" }, { name: "asc" }],
    });
    return rows.map(toItem);
  }

  async findItems(tenantId: string, ids: readonly string[]): Promise<OrderableItem[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.menuItem.findMany({
      where: { tenantId, id: { in: [...ids] } },
      include: { category: { select: { stationId: true, optionGroups: true } } },
    });
    return rows.map((r) => ({ ...toItem(r), categoryStationId: r.category.stationId, categoryOptionGroups: toOptionGroups(r.category.optionGroups) }));
  }

  async findCategory(tenantId: string, id: string): Promise<MenuCategory | null> {
    const row = await this.db.menuCategory.findFirst({ where: { tenantId, id } });
    return row ? toCategory(row) : null;
  }

  async createCategory(tenantId: string, c: Omit<MenuCategory, "id">): Promise<MenuCategory> {
    return toCategory(await named("category", c.name, () => this.db.menuCategory.create({ data: { tenantId, ...groupsJson(c) } })));
  }

  async updateCategory(tenantId: string, id: string, patch: CategoryPatch): Promise<MenuCategory | null> {
    const { count } = await named("category", patch.name ?? "", () => this.db.menuCategory.updateMany({ where: { tenantId, id }, data: groupsJson(patch) }));
    return count === 0 ? null : this.findCategory(tenantId, id);
  }

  async deleteCategory(tenantId: string, id: string, cascade: boolean): Promise<{ deleted: boolean; items: number }> {
    // Counted and deleted in one transaction: an item added meanwhile is either counted
    // (and the delete refused) or deleted with the category, never orphaned.
    return this.db.$transaction(async (tx) => {
      const category = await tx.menuCategory.findFirst({ where: { tenantId, id }, select: { id: true } });
      if (!category) return { deleted: false, items: 0 };
      // Lock the row so a concurrent item insert (which references it) waits for us.
      await tx.$queryRaw`SELECT 1 FROM "MenuCategory" WHERE id = ${id}::uuid FOR UPDATE`;
      const items = await tx.menuItem.count({ where: { tenantId, categoryId: id } });
      if (items > 0 && !cascade) return { deleted: false, items };
      await tx.menuItem.deleteMany({ where: { tenantId, categoryId: id } });
      await tx.menuCategory.deleteMany({ where: { tenantId, id } });
      return { deleted: true, items };
    });
  }

  async createItem(tenantId: string, i: Omit<MenuItem, "id">): Promise<MenuItem> {
    return toItem(await named("item", i.name, () => this.db.menuItem.create({ data: { tenantId, ...groupsJson(i) } })));
  }

  async updateItem(tenantId: string, id: string, patch: ItemPatch): Promise<MenuItem | null> {
    const { count } = await named("item", patch.name ?? "", () => this.db.menuItem.updateMany({ where: { tenantId, id }, data: groupsJson(patch) }));
    if (count === 0) return null;
    const [item] = await this.findItems(tenantId, [id]);
    return item ?? null;
  }

  async deleteItem(tenantId: string, id: string): Promise<boolean> {
    return (await this.db.menuItem.deleteMany({ where: { tenantId, id } })).count > 0;
  }

  async setAvailable(tenantId: string, id: string, available: boolean): Promise<{ item: MenuItem; changed: boolean } | null> {
    // Fenced by its own WHERE: of two cooks tapping at once, one changes the row (and is audited), the other finds it done.
    const [row] = await this.db.$queryRaw<ItemRow[]>`
      UPDATE "MenuItem" SET available = ${available}
      WHERE id = ${id}::uuid AND "tenantId" = ${tenantId}::uuid AND available <> ${available}
      RETURNING id, "categoryId", name, "priceCents", available, position, "stationId", "optionGroups"`;
    if (row) return { item: toItem(row), changed: true };
    const [item] = await this.findItems(tenantId, [id]);
    return item ? { item, changed: false } : null;
  }

  async setPositions(tenantId: string, kind: "category" | "item", positions: readonly { id: string; position: number }[]): Promise<void> {
    await this.db.$transaction(
      positions.map(({ id, position }) =>
        kind === "category"
          ? this.db.menuCategory.updateMany({ where: { tenantId, id }, data: { position } })
          : this.db.menuItem.updateMany({ where: { tenantId, id }, data: { position } }),
      ),
    );
  }

  async seedIfEmpty(tenantId: string, menu: readonly SeedMenu<OptionGroup>[]): Promise<boolean> {
    const json = (g: readonly OptionGroup[] | undefined) => (g ?? []) as unknown as Prisma.InputJsonValue;
    return this.db.$transaction(async (tx) => {
      if ((await tx.menuCategory.count({ where: { tenantId } })) > 0) return false;
      for (const [position, c] of menu.entries()) {
        const category = await tx.menuCategory.create({ data: { tenantId, name: c.name, position, optionGroups: json(c.optionGroups) } });
        await tx.menuItem.createMany({
          data: c.items.map((i, p) => ({
            tenantId,
            categoryId: category.id,
            name: i.name,
            priceCents: i.priceCents,
            position: p,
            optionGroups: json(i.optionGroups),
          })),
        });
      }
      return true;
    });
  }
}
