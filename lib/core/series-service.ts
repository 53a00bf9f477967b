/** A restaurant's number series: listed, added, changed and retired by a manager (decision 0027). */
import { AppError } from "./errors";
import { isUuid } from "./ids";
import { parseOrThrow } from "./orders";
import type { CacheInvalidator, EventPublisher, SeriesFields, SeriesStore } from "./ports";
import { checkSeriesSet, DEFAULT_SERIES_ID, newSeriesSchema, seriesFill, seriesPatchSchema, type Series } from "./series";

/** A series with the numbers of its range open orders hold. */
export type SeriesWithOpen = Series & { open: number; fill: ReturnType<typeof seriesFill> };
import type { Tenant } from "./tenants";

const defaultFixed = () =>
  new AppError("CONFLICT", {
    message: "The default series cannot be changed or deleted: add a series for the channels that need other numbers",
    reason: "defaultSeriesFixed",
  });

const notFound = (id: string) =>
  new AppError("NOT_FOUND", { message: `No series ${id}`, userMessage: "This series does not exist.", reason: "seriesNotFound" });

const fieldsOf = (s: Series): SeriesFields => ({ name: s.name, prefix: s.prefix, first: s.first, last: s.last, channels: s.channels });

export class SeriesService {
  constructor(
    private readonly deps: { store: SeriesStore; invalidate: Pick<CacheInvalidator, "tenantChanged">; events?: Pick<EventPublisher, "settingsChanged"> },
  ) {}

  list(tenant: Tenant): Promise<Series[]> {
    return this.deps.store.list(tenant.id);
  }

  /** The series with how many of each one's numbers open orders hold, and how full that makes it. */
  async listWithOpen(tenant: Tenant): Promise<SeriesWithOpen[]> {
    const all = await this.deps.store.list(tenant.id);
    const open = await this.deps.store.openCounts(tenant.id, all);
    return all.map((s) => ({ ...s, open: open.get(s.id) ?? 0, fill: seriesFill(s, open.get(s.id) ?? 0) }));
  }

  async create(tenant: Tenant, input: unknown, actor: string): Promise<Series> {
    const fields = parseOrThrow(newSeriesSchema, input ?? {}, "series");
    const made = await this.deps.store.change(tenant.id, (current) => {
      checkSeriesSet([...current, { ...fields, id: "new", isDefault: false }]);
      return { change: { kind: "create", series: fields }, audit: { actor, action: "series.create", details: { ...fields } } };
    });
    await this.changed(tenant);
    return made;
  }

  /**
   * Changes some fields. Orders already taken keep their number and prefix; the next tickets
   * follow the new range, skipping every open number (the index over open numbers).
   */
  async update(tenant: Tenant, id: string, input: unknown, actor: string): Promise<Series> {
    const patch = parseOrThrow(seriesPatchSchema, input ?? {}, "series");
    if (id === DEFAULT_SERIES_ID) throw defaultFixed();
    if (!isUuid(id)) throw notFound(id);
    let unchanged = false;
    const saved = await this.deps.store.change(tenant.id, (current) => {
      const before = current.find((s) => s.id === id);
      if (!before) throw notFound(id);
      const next: Series = { ...before, ...patch };
      if (next.last !== null && next.last < next.first) {
        const message = "Last must be at least First";
        throw new AppError("BAD_INPUT", { message, details: { fields: [{ path: "last", message }] } });
      }
      checkSeriesSet(current.map((s) => (s.id === id ? next : s)));
      const changes = Object.fromEntries(
        (Object.keys(patch) as (keyof SeriesFields)[])
          .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(next[k]))
          .map((k) => [k, { from: before[k], to: next[k] }]),
      );
      // Fields sent as they already are: nothing to write, audit or announce to every screen.
      unchanged = Object.keys(changes).length === 0;
      if (unchanged) return { change: { kind: "none", id }, audit: null };
      return { change: { kind: "update", id, series: fieldsOf(next) }, audit: { actor, action: "series.update", details: { name: before.name, changes } } };
    });
    if (!unchanged) await this.changed(tenant);
    return saved;
  }

  /** Retires a series: its channels go back to the default; its open orders keep their numbers. */
  async remove(tenant: Tenant, id: string, actor: string): Promise<Series> {
    if (id === DEFAULT_SERIES_ID) throw defaultFixed();
    if (!isUuid(id)) throw notFound(id);
    const gone = await this.deps.store.change(tenant.id, (current) => {
      const s = current.find((x) => x.id === id);
      if (!s) throw notFound(id);
      return { change: { kind: "delete", id }, audit: { actor, action: "series.delete", details: { ...fieldsOf(s) } } };
    });
    await this.changed(tenant);
    return gone;
  }

  private async changed(tenant: Tenant): Promise<void> {
    // Every node's cached tenant carries its series: the order path reads them there.
    await this.deps.invalidate.tenantChanged(tenant.slug);
    this.deps.events?.settingsChanged(tenant);
  }
}
