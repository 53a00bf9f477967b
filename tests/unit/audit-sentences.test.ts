import { describe, expect, it } from "vitest";
import { createTranslator } from "use-intl/core";
import { auditActor, auditSentences, type Sentence } from "@/lib/core/audit-sentences";
import type { AuditEntry } from "@/lib/core/audit";
import { messagesFor } from "@/lib/i18n/messages";
import { LOCALES, type Locale } from "@/lib/core/locales";
import { sentenceText } from "@/app/[tenant]/manager/audit/sentence-text";

const say = (locale: Locale) => sentenceText(createTranslator({ locale, messages: messagesFor(locale), namespace: "managerAudit" }));
const en = say("en");
const zh = say("zh-CN");
const entry = (action: AuditEntry["action"], details: Record<string, unknown>) => ({ action, details });
const lines = (s: (x: Sentence) => string, e: ReturnType<typeof entry>) => auditSentences(e).map(s);

/** Every kind of entry the app writes, as stored. */
const SAMPLES = [
  entry("menu.update", { change: "item.update", itemId: "5f0c…", name: "Dumplings", from: { available: true }, to: { available: false } }),
  entry("menu.update", {
    change: "item.update",
    itemId: "5f0c…",
    name: "Dumplings",
    from: { priceCents: 850, name: "Dumpling" },
    to: { priceCents: 900, name: "Dumplings" },
  }),
  entry("menu.update", { change: "item.create", itemId: "x", name: "Tea", categoryId: "c", category: "Drinks", priceCents: null, available: true }),
  entry("menu.update", { change: "category.delete", categoryId: "c", name: "Drinks", itemsDeleted: 3 }),
  entry("menu.update", { change: "item.move", itemId: "x", name: "Tea", direction: "up" }),
  entry("menu.update", { change: "menu.seed", categories: ["Mains", "Drinks"] }),
  entry("settings.update", {
    changes: {
      timezone: { from: "Europe/Berlin", to: "Asia/Shanghai" },
      language: { from: null, to: "zh-CN" },
      schedule: { from: [], to: ["11:00", "17:00"] },
    },
  }),
  entry("shift.start", { businessDay: "2026-11-25", shift: 2, firstNumber: 1, reason: null, trigger: "manual", openOrders: "keep", cleared: 0, kept: 3 }),
  entry("shift.start", {
    businessDay: "2026-11-25",
    shift: 3,
    firstNumber: 100,
    reason: "dinner",
    trigger: "schedule",
    slot: "17:00",
    openOrders: "clear",
    cleared: 2,
  }),
  entry("shift.scheduleSkipped", { businessDay: "2026-11-25", slot: "11:00", reason: "pastGrace", term: 1 }),
  entry("orders.clearForgotten", { hours: 12, count: 3, orders: [] }),
  entry("staff.rotate", { role: "KITCHEN" }),
  entry("key.create", { id: "k", name: "Delivery app", role: "CASHIER", prefix: "csh_1a2b" }),
  entry("webhook.create", { id: "w", url: "https://pos.example.com/hook", events: ["order.created", "order.ready"] }),
  entry("webhook.update", {
    id: "w",
    url: "https://pos.example.com/hook",
    from: { events: ["order.created"] },
    to: { events: ["order.ready", "shift.started"] },
  }),
  entry("webhook.ping", { id: "w", url: "https://pos.example.com/hook" }),
  // Number series (decision 0027) as SeriesService writes them; the store adds the id.
  entry("series.create", { id: "s", name: "Kiosk", prefix: "K", first: 1, last: 99, channels: ["kiosk"] }),
  entry("series.update", {
    id: "s",
    name: "Kiosk",
    changes: {
      name: { from: "Kiosk", to: "Self-service" },
      prefix: { from: "K", to: "" },
      last: { from: 99, to: null },
      channels: { from: ["kiosk"], to: ["kiosk", "web"] },
    },
  }),
  entry("series.delete", { id: "s", name: "Delivery", prefix: "D", first: 300, last: null, channels: [] }),
  entry("counter.jumpedAfterFailover", {
    timeline: 2,
    counters: [
      { series: null, businessDay: "2026-11-26", shift: 1, from: 40, to: 131 },
      { series: "Kiosk", businessDay: "2026-11-26", shift: 1, from: 10, to: 93 },
    ],
  }),
];

describe("audit entries in sentences", () => {
  it("says what changed, never the stored JSON (the bug: 'to: {\"available\":false}')", () => {
    expect(lines(en, SAMPLES[0]!)).toEqual(["Dumplings marked sold out"]);
    expect(lines(zh, SAMPLES[0]!)).toEqual(["Dumplings 已标为售罄"]);
    expect(lines(en, SAMPLES[1]!)).toEqual(["Dumplings price 8.50 → 9.00", "Dumpling renamed Dumplings"]);
    expect(lines(en, SAMPLES[2]!)).toEqual(["Tea added to Drinks (price: no price)"]);
    expect(lines(en, SAMPLES[3]!)).toEqual(["Category Drinks deleted with its 3 items"]);
    expect(lines(en, SAMPLES[5]!)).toEqual(["Starter menu added: Mains, Drinks"]);
    expect(lines(zh, SAMPLES[5]!)).toEqual(["已添加初始菜单：Mains、Drinks"]);
  });

  it("settings: one sentence per field, values in the screen's language", () => {
    expect(lines(en, SAMPLES[6]!)).toEqual([
      "Time zone Europe/Berlin → Asia/Shanghai",
      "Default language each browser's own → Chinese",
      "Shift schedule none → 11:00, 17:00",
    ]);
    expect(lines(zh, SAMPLES[6]!)).toEqual(["时区 Europe/Berlin → Asia/Shanghai", "默认语言 跟随各浏览器 → 中文", "班次时间表 无 → 11:00、17:00"]);
  });

  it("shifts: started with the open orders kept or cleared, by the schedule, and skipped slots with why", () => {
    expect(lines(en, SAMPLES[7]!)).toEqual(["Shift 2 started, 3 open orders kept"]);
    expect(lines(zh, SAMPLES[7]!)).toEqual(["第 2 班开始，保留了 3 个未完成订单"]);
    expect(lines(en, SAMPLES[8]!)).toEqual([
      "Shift 3 started, 2 open orders cleared",
      "Started by the schedule (17:00)",
      "Numbers start at 100",
      "Reason: dinner",
    ]);
    expect(lines(en, SAMPLES[9]!)).toEqual(["Scheduled shift 11:00 skipped: started too late"]);
    expect(lines(zh, SAMPLES[9]!)).toEqual(["已跳过 11:00 的定时班次：开始得太晚"]);
    // An entry written before `kept` was recorded still reads.
    expect(lines(en, entry("shift.start", { shift: 2, openOrders: "keep", cleared: 0 }))).toEqual(["Shift 2 started, open orders kept"]);
    expect(lines(en, SAMPLES[10]!)).toEqual(["Forgotten open orders cleared: 3 (open for more than 12 hours)"]);
    // After a database failover (decision 0028): each counter's ceiling before and after.
    expect(lines(en, SAMPLES.at(-1)!)).toEqual([
      "After a database failover (timeline 2) the numbers moved on, so that none handed out before it comes again (business day/shift: ceiling before → after): 2026-11-26/1: 40 → 131; Kiosk 2026-11-26/1: 10 → 93",
    ]);
    expect(lines(zh, SAMPLES.at(-1)!)[0]).toMatch(/^数据库故障切换（时间线 2）后号码已向后跳过.*：2026-11-26\/1: 40 → 131; Kiosk 2026-11-26\/1: 10 → 93$/);
  });

  it("a restore's jump (decision 0046): the backup's time, each counter before → after, and a series that comes round within it", () => {
    const restored = entry("counter.jumpedAfterRestore", {
      backupAt: "2026-12-01T19:00:12.345Z",
      windowMinutes: 95,
      counters: [
        { series: null, businessDay: "2026-12-01", shift: 1, from: 120, to: 261 },
        { series: "Kiosk", businessDay: "2026-12-01", shift: 1, from: 40, to: 181 },
      ],
      lapped: ["Kiosk"],
    });
    expect(lines(en, restored)).toEqual([
      "Restored from the backup of 2026-12-01 19:00 UTC: the numbers moved on, so that none handed out after the backup comes again (business day/shift: ceiling before → after): 2026-12-01/1: 120 → 261; Kiosk 2026-12-01/1: 40 → 181",
      "Series Kiosk come round within that jump: numbers handed out before the restore may be given again; check tickets from before it",
    ]);
    expect(lines(zh, restored)).toEqual([
      "已从 2026-12-01 19:00 UTC 的备份恢复：号码已向后跳过，备份之后发出的号码不会重复（营业日/班次：原上限 → 新上限）：2026-12-01/1: 120 → 261; Kiosk 2026-12-01/1: 40 → 181",
      "序列 Kiosk 在跳过的范围内会循环：恢复前发出的号码可能再次发出，请核对恢复前的小票",
    ]);
    for (const locale of LOCALES) {
      const t = createTranslator({ locale, messages: messagesFor(locale), namespace: "managerAudit" }) as unknown as { has(k: string): boolean };
      expect(t.has("actions.counter_jumpedAfterRestore"), locale).toBe(true);
    }
  });

  it("codes, keys and webhooks", () => {
    expect(lines(en, SAMPLES[11]!)).toEqual(["New sign-in code for Kitchen"]);
    expect(lines(zh, SAMPLES[11]!)).toEqual(["已为厨房生成新登录码"]);
    expect(lines(en, SAMPLES[12]!)).toEqual(["API key “Delivery app” created (Cashier, csh_1a2b…)"]);
    expect(lines(en, SAMPLES[13]!)).toEqual(["Webhook https://pos.example.com/hook added (Order taken, Order ready)"]);
    expect(lines(en, SAMPLES[14]!)).toEqual(["Webhook https://pos.example.com/hook now receives: Order ready, New shift"]);
    expect(lines(en, SAMPLES[15]!)).toEqual(["Test message sent to https://pos.example.com/hook"]);
    const rotated = entry("webhook.rotateSecret", { id: "w", url: "https://pos.example.com/hook" });
    expect(lines(en, rotated)).toEqual(["New signing secret for webhook https://pos.example.com/hook"]);
    expect(lines(zh, rotated)).toEqual(["已为 Webhook https://pos.example.com/hook 生成新的签名密钥"]);
    const cleared = entry("webhook.create", { id: "w", url: "https://pos.example.com/hook", events: ["order.cleared"] });
    expect(lines(en, cleared)).toEqual(["Webhook https://pos.example.com/hook added (Order cleared off the floor)"]);
    expect(lines(zh, cleared)).toEqual(["已添加 Webhook https://pos.example.com/hook（订单已从列表清除）"]);
  });

  it("number series: added and deleted with their range and channels, changes field by field", () => {
    expect(lines(en, SAMPLES[16]!)).toEqual(["Number series Kiosk added: K1–K99", "Channels: Kiosk"]);
    expect(lines(zh, SAMPLES[16]!)).toEqual(["已新增号码序列 Kiosk：K1–K99", "渠道：点餐台"]);
    // After a rename, the other changes name the series as it is called now.
    expect(lines(en, SAMPLES[17]!)).toEqual([
      "Number series Kiosk renamed Self-service",
      "Series Self-service prefix K → none",
      "Series Self-service last number 99 → no end",
      "Series Self-service channels Kiosk → Kiosk, Web",
    ]);
    expect(lines(zh, SAMPLES[17]!)).toEqual([
      "号码序列 Kiosk 改名为 Self-service",
      "序列 Self-service 前缀 K → 无",
      "序列 Self-service 结束号码 99 → 无上限",
      "序列 Self-service 渠道 点餐台 → 点餐台、网上",
    ]);
    expect(lines(en, SAMPLES[18]!)).toEqual(["Number series Delivery deleted (from D300, no end)", "Channels: none"]);
    expect(lines(zh, SAMPLES[18]!)).toEqual(["已删除号码序列 Delivery（从 D300 起，无上限）", "渠道：无"]);
    // The console's label for these entries exists in both languages already.
    for (const locale of LOCALES) {
      const t = createTranslator({ locale, messages: messagesFor(locale), namespace: "managerAudit" }) as unknown as { has(k: string): boolean };
      for (const a of ["series_create", "series_update", "series_delete"]) expect(t.has(`actions.${a}`), `${locale}: actions.${a}`).toBe(true);
    }
  });

  it("a dish sold out or back (menu.available, the kitchen's tap): its name and which way, with the console's label in both languages", () => {
    const out = entry("menu.available", { itemId: "5f0c…", name: "Dumplings", available: false });
    const back = entry("menu.available", { itemId: "5f0c…", name: "Dumplings", available: true });
    expect(lines(en, out)).toEqual(["Dumplings marked sold out"]);
    expect(lines(en, back)).toEqual(["Dumplings available again"]);
    expect(lines(zh, out)).toEqual(["Dumplings 已标为售罄"]);
    expect(lines(zh, back)).toEqual(["Dumplings 已恢复供应"]);
    for (const locale of LOCALES) {
      const t = createTranslator({ locale, messages: messagesFor(locale), namespace: "managerAudit" }) as unknown as { has(k: string): boolean };
      expect(t.has("actions.menu_available"), locale).toBe(true);
    }
  });

  it("an unknown detail still shows as field: value", () => {
    expect(lines(en, entry("menu.update", { change: "menu.future", count: 2 }))).toEqual(["change: menu.future", "count: 2"]);
  });

  it("every key it produces exists in both languages", () => {
    for (const locale of LOCALES) {
      const t = createTranslator({ locale, messages: messagesFor(locale), namespace: "managerAudit" }) as unknown as { has(k: string): boolean };
      const used = SAMPLES.flatMap((e) => auditSentences(e)).flatMap((s) => [
        s.key,
        ...Object.values(s.values).flatMap((v) =>
          typeof v === "object" ? ("msg" in v ? [v.msg] : v.list.flatMap((x) => (typeof x === "object" ? [x.msg] : []))) : [],
        ),
      ]);
      for (const k of used) expect(t.has(`sentences.${k}`), `${locale}: sentences.${k}`).toBe(true);
    }
  });
});

describe("audit actors", () => {
  it("translates staff roles, API keys, the scheduler and the app", () => {
    expect(en(auditActor("Manager (staff)"))).toBe("Manager (staff)");
    expect(zh(auditActor("Manager (staff)"))).toBe("经理（员工）");
    expect(zh(auditActor("api-key mgr_1a2b3c4d"))).toBe("API 密钥 mgr_1a2b3c4d…");
    expect(en(auditActor("scheduler"))).toBe("Scheduler");
    expect(zh(auditActor("scheduler"))).toBe("定时任务");
    expect(zh(auditActor("system"))).toBe("系统");
    expect(en(auditActor("Night owl (staff)"))).toBe("Night owl (staff)");
    expect(en(auditActor("Manager (test)"))).toBe("Manager (test)");
  });
});
