/**
 * A restaurant's kitchen stations, kept by a manager (issue #40): added, renamed, made the
 * default, given a chit printer, retired. Every node's cached tenant carries them: the order
 * path routes lines there without a read.
 */
import { AppError } from "./errors";
import { isUuid } from "./ids";
import { parseOrThrow } from "./orders";
import type { CacheInvalidator, EventPublisher, PrinterStore, StationFields, StationStore } from "./ports";
import { byStationOrder, newStationSchema, STATION_LIMITS, stationPatchSchema, type Station } from "./stations";
import type { Tenant } from "./tenants";

/** A station with how many open orders still wait for its part. */
export type StationWithWork = Station & { open: number };

const notFound = (id: string) =>
  new AppError("NOT_FOUND", { message: `No station ${id}`, userMessage: "This station does not exist.", reason: "stationNotFound" });

const fieldsOf = (s: Station): StationFields => ({ name: s.name, isDefault: s.isDefault, printerId: s.printerId, position: s.position });

const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

function nameTaken(name: string): AppError {
  const message = `A station named "${name}" already exists`;
  return new AppError("CONFLICT", { message, userMessage: `${message}.`, reason: "duplicateStation", details: { fields: [{ path: "name", message }] } });
}

export class StationService {
  constructor(
    private readonly deps: {
      store: StationStore;
      printers: Pick<PrinterStore, "get">;
      invalidate: Pick<CacheInvalidator, "tenantChanged">;
      events?: Pick<EventPublisher, "settingsChanged">;
    },
  ) {}

  /** The live stations in screen order, each with its open work. */
  async list(tenant: Tenant): Promise<StationWithWork[]> {
    const [all, work] = await Promise.all([this.deps.store.list(tenant.id), this.deps.store.openWork(tenant.id)]);
    return all.map((s) => ({ ...s, open: work.get(s.id) ?? 0 }));
  }

  /** A new station; the first one is the default (lines without a station go there), as is one sent with `default: true`. */
  async create(tenant: Tenant, input: unknown, actor: string): Promise<Station> {
    const data = parseOrThrow(newStationSchema, input ?? {}, "station");
    if (data.printerId) await this.printerField(tenant, data.printerId);
    const made = await this.deps.store.change(tenant.id, (current) => {
      if (current.some((s) => sameName(s.name, data.name))) throw nameTaken(data.name);
      if (current.length >= STATION_LIMITS.stations) {
        throw new AppError("CONFLICT", {
          message: `At most ${STATION_LIMITS.stations} stations per restaurant`,
          userMessage: `A restaurant has at most ${STATION_LIMITS.stations} stations.`,
          reason: "tooManyStations",
        });
      }
      const isDefault = current.length === 0 || data.default === true;
      const position = current.length === 0 ? 0 : Math.max(...current.map((s) => s.position)) + 1;
      const station: StationFields = { name: data.name, isDefault, printerId: data.printerId ?? null, position };
      return {
        change: { kind: "create", station },
        audit: { actor, action: "station.create", details: { name: data.name, default: isDefault, printerId: station.printerId } },
      };
    });
    await this.changed(tenant);
    return made;
  }

  /** Renames it, makes it the default (the old default stops being it), or sets its chit printer (null: none). */
  async update(tenant: Tenant, id: string, input: unknown, actor: string): Promise<Station> {
    const patch = parseOrThrow(stationPatchSchema, input ?? {}, "station");
    if (!isUuid(id)) throw notFound(id);
    if (patch.printerId) await this.printerField(tenant, patch.printerId);
    let unchanged = false;
    const saved = await this.deps.store.change(tenant.id, (current) => {
      const before = current.find((s) => s.id === id);
      if (!before) throw notFound(id);
      if (patch.name !== undefined && current.some((s) => s.id !== id && sameName(s.name, patch.name!))) throw nameTaken(patch.name);
      const next: Station = {
        ...before,
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.printerId !== undefined ? { printerId: patch.printerId } : {}),
        ...(patch.default ? { isDefault: true } : {}),
      };
      const changes = Object.fromEntries(
        (["name", "isDefault", "printerId"] as const).filter((k) => before[k] !== next[k]).map((k) => [k, { from: before[k], to: next[k] }]),
      );
      unchanged = Object.keys(changes).length === 0;
      if (unchanged) return { change: { kind: "none", id }, audit: null };
      const oldDefault = next.isDefault && !before.isDefault ? current.find((s) => s.isDefault)?.id : undefined;
      return {
        change: { kind: "update", id, station: fieldsOf(next), ...(oldDefault ? { unsetDefault: oldDefault } : {}) },
        audit: { actor, action: "station.update", details: { name: before.name, changes } },
      };
    });
    if (!unchanged) await this.changed(tenant);
    return saved;
  }

  /**
   * Retires a station. Its open work moves to the default station's screen (stations.ts
   * partIsFor) and menu entries that named it go to the default; the default itself goes
   * last (another must be made the default first), so no line is ever left without a screen.
   */
  async remove(tenant: Tenant, id: string, actor: string): Promise<Station> {
    if (!isUuid(id)) throw notFound(id);
    const gone = await this.deps.store.change(tenant.id, (current) => {
      const s = current.find((x) => x.id === id);
      if (!s) throw notFound(id);
      if (s.isDefault && current.length > 1) {
        const others = [...current].filter((x) => x.id !== id).sort(byStationOrder);
        throw new AppError("CONFLICT", {
          message: `${s.name} is the default station: make another one (e.g. ${others[0]!.name}) the default before removing it`,
          userMessage: `${s.name} takes every line without a station: make another station the default first, then remove it.`,
          reason: "defaultStation",
        });
      }
      return { change: { kind: "delete", id }, audit: { actor, action: "station.delete", details: { name: s.name, printerId: s.printerId } } };
    });
    await this.changed(tenant);
    return gone;
  }

  /** A printerId in a body: one of the restaurant's printers (400 naming the field otherwise). */
  private async printerField(tenant: Tenant, printerId: string): Promise<void> {
    if (await this.deps.printers.get(tenant.id, printerId)) return;
    const message = "No such printer: choose one of the restaurant's printers, or null for none";
    throw new AppError("BAD_INPUT", {
      message: `printerId: ${message}`,
      userMessage: `printerId: ${message}.`,
      reason: "unknownPrinter",
      details: { fields: [{ path: "printerId", message }] },
    });
  }

  private async changed(tenant: Tenant): Promise<void> {
    // Every node's cached tenant carries its stations: orders are routed from there.
    await this.deps.invalidate.tenantChanged(tenant.slug);
    this.deps.events?.settingsChanged(tenant);
  }
}
