/** Kitchen stations (issue #40): the restaurant's list, and a station's part of an order. */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { orderJsonSchema } from "@/lib/core/order-json";
import { newStationSchema, stationPatchSchema } from "@/lib/core/stations";
import { listedStationJsonSchema, stationJsonSchema } from "../../station-json";
import { jsonResponse, operation } from "../operation";
import { byId, id, inTenant, slug } from "./params";

const TAG = "Stations";
const manager = { roles: ["MANAGER"] } as const;
const part = z.object({ slug, id, stationId: id });

export const stationPaths: ZodOpenApiPathsObject = {
  "/api/v1/orgs/{slug}/stations": {
    get: operation("get", {
      operationId: "listStations",
      tag: TAG,
      summary: "The kitchen stations, in screen order",
      access: manager,
      path: inTenant,
      ok: { 200: jsonResponse("The stations.", z.object({ stations: z.array(listedStationJsonSchema) }).meta({ id: "StationList" })) },
    }),
    post: operation("post", {
      operationId: "createStation",
      tag: TAG,
      summary: "Add a station",
      description:
        "The first station is the default: lines without a station of their own (free text, menu items and categories without one) go there; `default: true` makes a new one the default instead. A restaurant without stations sends every order to one kitchen, as before. Names are unique ignoring case (409).",
      access: manager,
      path: inTenant,
      body: newStationSchema,
      ok: { 201: jsonResponse("The station, with its screen's path.", stationJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/stations/{id}": {
    patch: operation("patch", {
      operationId: "updateStation",
      tag: TAG,
      summary: "Rename a station, make it the default, or set its chit printer",
      description:
        "`default: true` moves the default here (the old one stops being it); `printerId: null` stops its kitchen chits. Orders already taken keep their parts.",
      access: manager,
      path: byId,
      body: stationPatchSchema,
      ok: { 200: jsonResponse("The station.", stationJsonSchema) },
      errors: [409],
    }),
    delete: operation("delete", {
      operationId: "deleteStation",
      tag: TAG,
      summary: "Remove a station",
      description:
        "Its open work shows on the default station's screen from then on, and menu entries that named it go to the default. The default station is removed last: while others remain it is 409 (reason `defaultStation`) — make another the default first.",
      access: manager,
      path: byId,
      ok: { 200: jsonResponse("The station as it was.", stationJsonSchema) },
      errors: [409],
    }),
  },
  "/api/v1/orgs/{slug}/orders/{id}/stations/{stationId}/done": {
    post: operation("post", {
      operationId: "markOrderPartDone",
      tag: "Orders",
      summary: "A station is done with its part of an order",
      description:
        "The order becomes READY — called on the boards, `order.ready` sent — when its last part is done, unless the restaurant's `readyWhen` is `expo` (then the expo screen's bump does it). Repeating it, or a part done after the order is ready, is a no-op 200. A station the order has no part of, or none at all, is 404; a cleared order 409.",
      access: { roles: ["KITCHEN"] },
      path: part,
      ok: { 200: jsonResponse("The order after it.", orderJsonSchema) },
      errors: [409],
    }),
    delete: operation("delete", {
      operationId: "undoOrderPartDone",
      tag: "Orders",
      summary: "Undo a station's Done",
      description:
        "Its part is open again; an order its parts made ready goes back to being prepared (as the kitchen's Undo), one the expo made ready stays ready. A collected or cancelled order is 409.",
      access: { roles: ["KITCHEN"] },
      path: part,
      ok: { 200: jsonResponse("The order after it.", orderJsonSchema) },
      errors: [409],
    }),
  },
};
