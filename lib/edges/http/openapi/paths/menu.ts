/** The menu: categories and items. */
import { z } from "zod";
import type { ZodOpenApiPathsObject, ZodOpenApiResponseObject } from "zod-openapi";
import { availabilitySchema, categoryPatchSchema, itemPatchSchema, newCategorySchema, newItemSchema } from "@/lib/core/menu";
import { cascadeQuerySchema, categoryJsonSchema, itemJsonSchema, sectionJsonSchema } from "../../menu-json";
import { jsonResponse, operation } from "../operation";
import { byId, inTenant } from "./params";

const TAG = "Menu";
const manager = { roles: ["MANAGER"] } as const;
const deleted: ZodOpenApiResponseObject = { description: "Deleted." };

export const menuPaths: ZodOpenApiPathsObject = {
  "/api/v1/orgs/{slug}/menu": {
    get: operation("get", {
      operationId: "getMenu",
      tag: TAG,
      summary: "The whole menu, categories with their items",
      access: { roles: ["CASHIER"] },
      path: inTenant,
      ok: { 200: jsonResponse("Categories in order, sold-out items included.", z.object({ categories: z.array(sectionJsonSchema) }).meta({ id: "Menu" })) },
    }),
  },
  "/api/v1/orgs/{slug}/menu/categories": {
    get: operation("get", {
      operationId: "listMenuCategories",
      tag: TAG,
      summary: "The categories",
      access: manager,
      path: inTenant,
      ok: { 200: jsonResponse("In order.", z.object({ categories: z.array(categoryJsonSchema) }).meta({ id: "MenuCategoryList" })) },
    }),
    post: operation("post", {
      operationId: "createMenuCategory",
      tag: TAG,
      summary: "Add a category",
      description: "Names are unique ignoring case (409).",
      access: manager,
      path: inTenant,
      body: newCategorySchema,
      ok: { 201: jsonResponse("The category.", categoryJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/menu/categories/{id}": {
    patch: operation("patch", {
      operationId: "updateMenuCategory",
      tag: TAG,
      summary: "Rename or move a category",
      access: manager,
      path: byId,
      body: categoryPatchSchema,
      ok: { 200: jsonResponse("The category.", categoryJsonSchema) },
      errors: [409],
    }),
    delete: operation("delete", {
      operationId: "deleteMenuCategory",
      tag: TAG,
      summary: "Delete a category",
      description: "409 while it has items, unless `cascade=true` (its items go too).",
      access: manager,
      path: byId,
      query: cascadeQuerySchema,
      ok: { 204: deleted },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/menu/items": {
    get: operation("get", {
      operationId: "listMenuItems",
      tag: TAG,
      summary: "The items",
      access: manager,
      path: inTenant,
      query: z.object({ categoryId: z.string().optional().meta({ description: "Only this category's." }) }),
      ok: { 200: jsonResponse("By category order, then item order.", z.object({ items: z.array(itemJsonSchema) }).meta({ id: "MenuItemList" })) },
    }),
    post: operation("post", {
      operationId: "createMenuItem",
      tag: TAG,
      summary: "Add an item",
      description: "Names are unique in their category ignoring case (409).",
      access: manager,
      path: inTenant,
      body: newItemSchema,
      ok: { 201: jsonResponse("The item.", itemJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/menu/items/{id}": {
    patch: operation("patch", {
      operationId: "updateMenuItem",
      tag: TAG,
      summary: "Change an item",
      access: manager,
      path: byId,
      body: itemPatchSchema,
      ok: { 200: jsonResponse("The item.", itemJsonSchema) },
      errors: [409],
    }),
    delete: operation("delete", {
      operationId: "deleteMenuItem",
      tag: TAG,
      summary: "Delete an item",
      description: "Orders already taken keep its name.",
      access: manager,
      path: byId,
      ok: { 204: deleted },
    }),
  },
  "/api/v1/orgs/{slug}/menu/items/{id}/available": {
    put: operation("put", {
      operationId: "setMenuItemAvailable",
      tag: TAG,
      summary: "Mark an item sold out, or back",
      description:
        "Writes `available` alone: a change of the item's other fields meanwhile is kept. Open kiosks show it at once; a change is audited (`menu.available`), setting what it already is is not.",
      access: { roles: ["KITCHEN"], session: "staff" },
      path: byId,
      body: availabilitySchema,
      ok: { 200: jsonResponse("The item.", itemJsonSchema) },
    }),
  },
};
