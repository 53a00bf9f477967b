import { describe, expect, it } from "vitest";
import { formatMoney, isCurrencyCode, orderTotal } from "@/lib/core/money";

describe("order total", () => {
  it("adds price × quantity of the priced lines in minor units", () => {
    expect(
      orderTotal([
        { qty: 3, priceCents: 1250 },
        { qty: 1, priceCents: 990 },
      ]),
    ).toEqual({ cents: 4740, unpriced: 0 });
  });

  it("has no float drift: ten lines of 0.10 and a 0.20 make exactly 1.20 (floats would give 1.2000000000000002)", () => {
    const lines = [...Array.from({ length: 10 }, () => ({ qty: 1, priceCents: 10 })), { qty: 1, priceCents: 20 }];
    expect(orderTotal(lines)).toEqual({ cents: 120, unpriced: 0 });
    expect(formatMoney(orderTotal(lines)!.cents, "en", "EUR")).toBe("€1.20");
    expect(
      formatMoney(
        orderTotal([
          { qty: 3, priceCents: 10 },
          { qty: 1, priceCents: 20 },
        ])!.cents,
        "en",
        null,
      ),
    ).toBe("0.50");
  });

  it("counts lines without a price apart, and is null when no line has one", () => {
    expect(orderTotal([{ qty: 2, priceCents: 500 }, { qty: 4 }])).toEqual({ cents: 1000, unpriced: 1 });
    expect(orderTotal([{ qty: 2 }])).toBeNull();
    expect(orderTotal([])).toBeNull();
  });

  it("a free dish (price 0) counts as priced", () => {
    expect(orderTotal([{ qty: 2, priceCents: 0 }])).toEqual({ cents: 0, unpriced: 0 });
  });

  it("adds the largest order the limits allow exactly (100 lines × 999 × 1,000,000.00)", () => {
    const lines = Array.from({ length: 100 }, () => ({ qty: 999, priceCents: 100_000_000 }));
    expect(orderTotal(lines)!.cents).toBe(9_990_000_000_000);
  });

  it("refuses fractional or negative amounts rather than rounding them", () => {
    expect(() => orderTotal([{ qty: 1, priceCents: 12.5 }])).toThrow(RangeError);
    expect(() => orderTotal([{ qty: -1, priceCents: 100 }])).toThrow(RangeError);
    expect(() => orderTotal([{ qty: 1.5, priceCents: 100 }])).toThrow(RangeError);
    expect(() =>
      orderTotal([
        { qty: 1, priceCents: Number.MAX_SAFE_INTEGER },
        { qty: 1, priceCents: 1 },
      ]),
    ).toThrow(RangeError);
  });
});

describe("formatting money", () => {
  it("in the restaurant's currency, as the screen's language writes it", () => {
    expect(formatMoney(1250, "en", "EUR")).toBe("€12.50");
    expect(formatMoney(1250, "en", "USD")).toBe("$12.50");
    expect(formatMoney(1250, "zh-CN", "CNY")).toBe("¥12.50");
    expect(formatMoney(123456, "en", "CNY")).toBe("CN¥1,234.56");
    expect(formatMoney(1250, "zh-CN", "EUR")).toBe("€12.50");
  });

  it("without a currency: the amount alone, two decimals", () => {
    expect(formatMoney(1250, "en", null)).toBe("12.50");
    expect(formatMoney(123456, "en", null)).toBe("1,234.56");
    expect(formatMoney(5, "zh-CN", null)).toBe("0.05");
  });

  it("a currency without minor units shows whole amounts without, and never rounds hundredths away", () => {
    expect(formatMoney(120000, "en", "JPY")).toBe("¥1,200");
    expect(formatMoney(1250, "en", "JPY")).toBe("¥12.50");
  });

  it("refuses a fractional amount", () => {
    expect(() => formatMoney(12.5, "en", "EUR")).toThrow(RangeError);
  });
});

describe("currency codes", () => {
  it("accepts ISO 4217 codes in capitals that Intl knows", () => {
    for (const code of ["EUR", "CNY", "USD", "GBP", "JPY", "HKD"]) expect(isCurrencyCode(code), code).toBe(true);
  });
  it("refuses lower case, other lengths and unknown codes", () => {
    for (const code of ["eur", "EURO", "EU", "XYZ", "", "€", "E U"]) expect(isCurrencyCode(code), code).toBe(false);
  });
});
