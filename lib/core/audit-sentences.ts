/**
 * The audit log in sentences: an entry becomes message keys and values (no words here), so
 * the console says "Dumplings marked sold out" in the screen's language instead of showing
 * stored JSON and ids. Keys are relative to the console's `managerAudit.sentences`.
 */
import { SCHEDULER_ACTOR, SYSTEM_ACTOR, type AuditEntry } from "./audit";
import { SETTINGS_FIELDS } from "./settings";
import { ASK_SERVICE, CHANNELS, SERVICES } from "./orders";
import { displayNumber } from "./display-number";

/** A value to translate first (a role, a reason, a language), by its key. */
export interface MessageRef {
  msg: string;
}
/** A list of plain words or translated ones, joined by the screen. */
export interface ListValue {
  list: (string | MessageRef)[];
}
export type SentenceValue = string | number | MessageRef | ListValue;

export interface Sentence {
  key: string;
  values: Record<string, SentenceValue>;
}

const sentence = (key: string, values: Record<string, SentenceValue> = {}): Sentence => ({ key, values });
const ref = (msg: string): MessageRef => ({ msg });

const ROLES = ["MANAGER", "CASHIER", "KITCHEN"] as const;
const SKIP_REASONS = ["pastGrace", "shiftStartedSince", "superseded"] as const;
const LANGUAGES = ["en", "zh-CN"] as const;
const EVENTS = ["order.created", "order.ready", "order.collected", "order.cancelled", "order.cleared", "shift.started", "ping"] as const;

const PRINTER_FIELDS = ["name", "host", "port", "paper", "charset", "channels", "series"] as const;

const known = <T extends string>(list: readonly T[], v: unknown): v is T => typeof v === "string" && (list as readonly string[]).includes(v);

/** A stored value as plain text; a nested object as JSON (only for what no sentence knows). */
function text(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return v.toString();
  return v === null || v === undefined ? "" : JSON.stringify(v);
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

const role = (v: unknown): SentenceValue => (known(ROLES, v) ? ref(`roles.${v}`) : text(v));
const events = (v: unknown): ListValue => ({ list: Array.isArray(v) ? v.map((e) => (known(EVENTS, e) ? ref(`events.${e.replace(".", "_")}`) : text(e))) : [] });

/** Who did it: staff by role, an API key by prefix, the scheduler, the app itself. */
export function auditActor(actor: string): Sentence {
  if (actor === SCHEDULER_ACTOR) return sentence("actors.scheduler");
  if (actor === SYSTEM_ACTOR) return sentence("actors.system");
  const staff = /^(.*) \(staff\)$/.exec(actor);
  if (staff) {
    const name = staff[1]!;
    const r = ROLES.find((x) => x.toLowerCase() === name.toLowerCase());
    return r ? sentence("actors.staff", { role: ref(`roles.${r}`) }) : sentence("actors.staffNamed", { name });
  }
  const key = /^api-key (.+)$/.exec(actor);
  if (key) return sentence("actors.apiKey", { prefix: key[1]! });
  return sentence("actors.other", { name: actor });
}

/** One entry's details as sentences (one or more); never raw JSON for a known action. */
export function auditSentences(e: Pick<AuditEntry, "action" | "details">): Sentence[] {
  const d = e.details;
  switch (e.action) {
    case "shift.start":
      return shiftStart(d);
    case "shift.scheduleSkipped":
      return [
        sentence("shift.skipped", {
          slot: text(d.slot),
          reason: ref(`skipReasons.${known(SKIP_REASONS, d.reason) ? d.reason : "other"}`),
        }),
      ];
    case "settings.update":
      return Object.entries(obj(d.changes)).map(([field, c]) => settingChange(field, obj(c)));
    case "staff.rotate":
      return [sentence("staff.rotated", { role: role(d.role) })];
    case "staff.add":
      return [sentence("staff.added", { name: text(d.name), role: role(d.role) })];
    case "staff.update":
      return staffUpdate(d);
    case "staff.signIn":
      return [sentence("staff.signedIn", { name: text(d.name), role: role(d.role), address: text(d.address) })];
    case "staff.pinWait":
      return [sentence("staff.pinWait", { name: text(d.name), failures: num(d.failures) ?? 0, seconds: num(d.waitSeconds) ?? 0, address: text(d.address) })];
    case "staff.pinWaitAddress":
      return [sentence("staff.pinWaitAddress", { address: text(d.address), failures: num(d.failures) ?? 0, seconds: num(d.waitSeconds) ?? 0 })];
    case "key.create":
    case "key.revoke":
      return [sentence(e.action === "key.create" ? "keys.created" : "keys.revoked", { name: text(d.name), role: role(d.role), prefix: text(d.prefix) })];
    case "menu.update":
      return menuChange(d);
    case "menu.available":
      return [sentence(d.available === false ? "menu.itemSoldOut" : "menu.itemAvailable", { name: text(d.name) })];
    case "webhook.create":
    case "webhook.delete":
      return [sentence(e.action === "webhook.create" ? "webhooks.created" : "webhooks.deleted", { url: text(d.url), events: events(d.events) })];
    case "webhook.update":
      return webhookUpdate(d);
    case "webhook.ping":
      return [sentence("webhooks.pinged", { url: text(d.url) })];
    case "webhook.rotateSecret":
      return [sentence("webhooks.secretRotated", { url: text(d.url) })];
    case "series.create":
    case "series.delete":
      return seriesMade(e.action === "series.create" ? "created" : "deleted", d);
    case "series.update":
      return seriesUpdate(d);
    case "station.create":
    case "station.delete":
      return [
        sentence(e.action === "station.create" ? (d.default === true ? "stations.createdDefault" : "stations.created") : "stations.deleted", {
          name: text(d.name),
        }),
      ];
    case "station.update":
      return stationUpdate(d);
    case "orders.clearForgotten":
      return [sentence("orders.clearedForgotten", { count: num(d.count) ?? 0, hours: num(d.hours) ?? 12 })];
    case "printer.create":
    case "printer.delete":
      return [
        sentence(e.action === "printer.create" ? "printers.created" : "printers.deleted", {
          name: text(d.name),
          address: `${text(d.host)}:${text(d.port)}`,
          queued: num(d.queued) ?? 0,
        }),
      ];
    case "printer.update":
      return Object.entries(obj(d.changes)).map(([field, c]) =>
        sentence("printers.changed", {
          name: text(d.name),
          field: ref(`printers.fields.${known(PRINTER_FIELDS, field) ? field : "other"}`),
          from: text(obj(c).from),
          to: text(obj(c).to),
        }),
      );
    case "printer.test":
      return [sentence("printers.tested", { name: text(d.name) })];
    case "printer.reprint":
      return [sentence("printers.reprinted", { number: displayNumber(text(d.prefix), num(d.number) ?? 0) })];
    case "counter.jumpedAfterFailover":
      return [sentence("counter.jumpedAfterFailover", { timeline: num(d.timeline) ?? 0, counters: jumpedCounters(d.counters) })];
    case "counter.jumpedAfterRestore":
      return jumpedAfterRestore(d, "counter.jumpedAfterRestore");
    case "counter.jumpedAfterImport":
      return jumpedAfterRestore(d, "counter.jumpedAfterImport");
    default:
      return other(d);
  }
}

/** "2026-11-26/1: 40 → 131; Kiosk 2026-11-26/1: 10 → 93" (business day/shift: ceiling before → after). */
function jumpedCounters(v: unknown): string {
  if (!Array.isArray(v)) return "";
  return v
    .map((c: Record<string, unknown>) => `${c.series ? `${text(c.series)} ` : ""}${text(c.businessDay)}/${text(c.shift)}: ${text(c.from)} → ${text(c.to)}`)
    .join("; ");
}

/** After a restore (decision 0046) or an import (0050): the file's time, each counter's jump, and the series that come round within it. */
function jumpedAfterRestore(d: Record<string, unknown>, key: "counter.jumpedAfterRestore" | "counter.jumpedAfterImport"): Sentence[] {
  const at = text(d.backupAt);
  const backupAt = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(at) ? `${at.slice(0, 10)} ${at.slice(11, 16)} UTC` : at;
  const out = [sentence(key, { backupAt, counters: jumpedCounters(d.counters) })];
  const lapped = Array.isArray(d.lapped) ? d.lapped.map(text) : [];
  if (lapped.length) out.push(sentence("counter.restoreLapped", { names: { list: lapped } }));
  return out;
}

function other(d: Record<string, unknown>): Sentence[] {
  return Object.entries(d).map(([k, v]) => sentence("other", { field: k, value: text(v) }));
}

function shiftStart(d: Record<string, unknown>): Sentence[] {
  const shift = num(d.shift) ?? 0;
  const cleared = num(d.cleared) ?? 0;
  const kept = num(d.kept);
  const out = [
    d.openOrders === "clear"
      ? sentence("shift.startedCleared", { shift, count: cleared })
      : kept === null
        ? sentence("shift.started", { shift })
        : sentence("shift.startedKept", { shift, count: kept }),
  ];
  if (d.trigger === "schedule" && typeof d.slot === "string") out.push(sentence("shift.bySchedule", { slot: d.slot }));
  const first = num(d.firstNumber);
  if (first !== null && first !== 1) out.push(sentence("shift.firstNumber", { first }));
  if (typeof d.reason === "string" && d.reason) out.push(sentence("shift.reason", { reason: d.reason }));
  return out;
}

/** Every setting has a sentence of its own: the fields the settings use case knows. */
const SETTINGS = SETTINGS_FIELDS;

function settingValue(field: string, v: unknown): SentenceValue {
  if (field === "language") return v === null || v === undefined ? ref("languages.browser") : known(LANGUAGES, v) ? ref(`languages.${v}`) : text(v);
  if (field === "readyWhen" && (v === "parts" || v === "expo")) return ref(`readyWhen.${v}`);
  if (field === "askService" && known(ASK_SERVICE, v)) return ref(`askService.${v}`);
  if (field === "defaultService" && known(SERVICES, v)) return ref(`service.${v}`);
  if (field === "soldOutAcceptedFrom") return channels(v);
  if (typeof v === "boolean") return ref(v ? "yes" : "no");
  if (Array.isArray(v)) return v.length ? { list: v.map(text) } : ref("none");
  if (v === null || v === undefined || v === "") return ref("none");
  return typeof v === "number" ? v : text(v);
}

/** A person changed: one sentence per change (a new PIN is said, never shown). */
function staffUpdate(d: Record<string, unknown>): Sentence[] {
  const name = text(d.name);
  const out: Sentence[] = [];
  for (const [field, raw] of Object.entries(obj(d.changes))) {
    const c = obj(raw);
    if (field === "name") out.push(sentence("staff.renamed", { from: text(c.from), to: text(c.to) }));
    else if (field === "role") out.push(sentence("staff.roleChanged", { name, from: role(c.from), to: role(c.to) }));
    else if (field === "active") out.push(sentence(c.to === false ? "staff.deactivated" : "staff.reactivated", { name }));
    else if (field === "pin") out.push(sentence("staff.pinChanged", { name }));
  }
  return out;
}

function stationUpdate(d: Record<string, unknown>): Sentence[] {
  const name = text(d.name);
  return Object.entries(obj(d.changes)).map(([field, c]) => {
    const to = obj(c).to;
    if (field === "name") return sentence("stations.renamed", { from: name, to: text(to) });
    if (field === "isDefault") return sentence("stations.madeDefault", { name });
    return sentence(to ? "stations.printerSet" : "stations.printerRemoved", { name });
  });
}

function settingChange(field: string, c: Record<string, unknown>): Sentence {
  const values = { from: settingValue(field, c.from), to: settingValue(field, c.to) };
  return known(SETTINGS, field) ? sentence(`settings.${field}`, values) : sentence("settings.other", { field, ...values });
}

/** Cents as "12.50" (the menu's prices have no currency here); null: no price. */
const price = (v: unknown): SentenceValue => (typeof v === "number" ? (v / 100).toFixed(2) : ref("noPrice"));

function menuChange(d: Record<string, unknown>): Sentence[] {
  const name = text(d.name);
  const from = obj(d.from);
  const to = obj(d.to);
  switch (d.change) {
    case "category.create":
      return [sentence("menu.categoryAdded", { name })];
    case "category.update":
      return Object.keys(to).map((k) =>
        k === "name" ? sentence("menu.categoryRenamed", { from: text(from.name), to: text(to.name) }) : sentence("menu.categoryMoved", { name }),
      );
    case "category.delete":
      return [sentence("menu.categoryDeleted", { name, count: num(d.itemsDeleted) ?? 0 })];
    case "category.move":
      return [sentence(d.direction === "up" ? "menu.categoryMovedUp" : "menu.categoryMovedDown", { name })];
    case "item.create":
      return [sentence(d.available === false ? "menu.itemAddedSoldOut" : "menu.itemAdded", { name, category: text(d.category), price: price(d.priceCents) })];
    case "item.update":
      return Object.keys(to).map((k) => itemChange(k, name, from[k], to[k]));
    case "item.delete":
      return [sentence("menu.itemDeleted", { name })];
    case "item.move":
      return [sentence(d.direction === "up" ? "menu.itemMovedUp" : "menu.itemMovedDown", { name })];
    case "menu.seed":
      return [sentence("menu.seeded", { categories: { list: Array.isArray(d.categories) ? d.categories.map(text) : [] } })];
    default:
      return other(d);
  }
}

function itemChange(field: string, name: string, from: unknown, to: unknown): Sentence {
  switch (field) {
    case "available":
      return sentence(to === false ? "menu.itemSoldOut" : "menu.itemAvailable", { name });
    case "name":
      return sentence("menu.itemRenamed", { from: text(from), to: text(to) });
    case "priceCents":
      return sentence("menu.itemPrice", { name, from: price(from), to: price(to) });
    case "categoryId":
      return sentence("menu.itemMovedCategory", { name });
    case "position":
      return sentence("menu.itemMoved", { name });
    default:
      return sentence("other", { field, value: text(to) });
  }
}

function webhookUpdate(d: Record<string, unknown>): Sentence[] {
  const from = obj(d.from);
  const to = obj(d.to);
  const out: Sentence[] = [];
  if ("url" in to) out.push(sentence("webhooks.urlChanged", { from: text(from.url), to: text(to.url) }));
  if ("events" in to) out.push(sentence("webhooks.eventsChanged", { url: text(d.url), events: events(to.events) }));
  return out;
}

const channels = (v: unknown): SentenceValue =>
  Array.isArray(v) && v.length ? { list: v.map((c) => (known(CHANNELS, c) ? ref(`channels.${c}`) : text(c))) } : ref("none");

/** A series' range as shown: "K1–K99", or "K1" and a sentence of its own for no end. */
function seriesRange(prefix: unknown, first: unknown, last: unknown): { key: "Range" | "Open"; values: Record<string, SentenceValue> } {
  const p = typeof prefix === "string" ? prefix : "";
  const from = displayNumber(p, num(first) ?? 1);
  const to = num(last);
  return to === null ? { key: "Open", values: { first: from } } : { key: "Range", values: { range: `${from}–${displayNumber(p, to)}` } };
}

/** A series added or deleted: its name and range, then its channels. */
function seriesMade(what: "created" | "deleted", d: Record<string, unknown>): Sentence[] {
  const range = seriesRange(d.prefix, d.first, d.last);
  return [sentence(`series.${what}${range.key}`, { name: text(d.name), ...range.values }), sentence("series.channels", { channels: channels(d.channels) })];
}

/** One sentence per changed field, naming the series as it is called now. */
function seriesUpdate(d: Record<string, unknown>): Sentence[] {
  const changes = obj(d.changes);
  const renamed = obj(changes.name);
  const name = "to" in renamed ? text(renamed.to) : text(d.name);
  const bound = (v: unknown): SentenceValue => num(v) ?? ref("noEnd");
  return Object.entries(changes).map(([field, raw]) => {
    const c = obj(raw);
    switch (field) {
      case "name":
        return sentence("series.renamed", { from: text(c.from), to: text(c.to) });
      case "prefix":
        return sentence("series.prefix", { name, from: text(c.from) || ref("none"), to: text(c.to) || ref("none") });
      case "first":
        return sentence("series.first", { name, from: bound(c.from), to: bound(c.to) });
      case "last":
        return sentence("series.last", { name, from: bound(c.from), to: bound(c.to) });
      case "channels":
        return sentence("series.channelsChanged", { name, from: channels(c.from), to: channels(c.to) });
      default:
        return sentence("other", { field, value: text(c.to) });
    }
  });
}
