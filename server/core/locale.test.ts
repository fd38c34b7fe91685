import { describe, expect, it } from "vitest";
import {
  formatMoney,
  formatTime,
  formatTimeLeft,
  pickLocale,
  timeZoneOfProvince,
  zoneLabel,
} from "./locale";

// Intl separates French thousands with a narrow no-break space and the symbol with a no-break space.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("formatMoney", () => {
  it("writes dollars as each language reads them, with separators", () => {
    expect(formatMoney(450_099, "en-CA")).toBe("$4,500.99");
    expect(plain(formatMoney(123_456, "fr-CA"))).toBe("1 234,56 $");
  });

  it("never shows a negative zero and keeps the sign of a cent", () => {
    expect(formatMoney(0, "en-CA")).toBe("$0.00");
    expect(formatMoney(-5, "en-CA")).toBe("-$0.05");
  });

  it("is exact at the largest amounts (no float division)", () => {
    expect(formatMoney(9_007_199_254_740_991, "en-CA")).toBe("$90,071,992,547,409.91");
  });
});

describe("pickLocale", () => {
  it("takes the saved language first", () => {
    expect(pickLocale("fr", "en-CA,en;q=0.9")).toBe("fr-CA");
    expect(pickLocale("en", "fr-CA")).toBe("en-CA");
  });

  it("else the browser's first language we speak, by weight", () => {
    expect(pickLocale(null, "de-DE, fr-FR;q=0.8, en;q=0.5")).toBe("fr-CA");
    expect(pickLocale(null, "en;q=0.4, fr;q=0.9")).toBe("fr-CA");
    expect(pickLocale(null, "fr;q=0, en")).toBe("en-CA");
  });

  it("else English, also for junk or an oversized header", () => {
    expect(pickLocale(undefined, undefined)).toBe("en-CA");
    expect(pickLocale(null, ";;;,q=abc")).toBe("en-CA");
    expect(pickLocale(null, `${"x-".repeat(5000)}fr`)).toBe("en-CA");
  });
});

describe("times", () => {
  const instant = new Date("2026-11-28T03:41:00Z");

  it("shows a moment in the person's zone, the zone named apart", () => {
    expect(formatTime(instant, "en-CA", timeZoneOfProvince("ON"))).toBe("Nov 27, 2026, 10:41 p.m.");
    expect(plain(formatTime(instant, "fr-CA", timeZoneOfProvince("QC")))).toBe(
      "27 nov. 2026, 22 h 41",
    );
    // Nova Scotia: a zone whose rules no recent time zone database changed (British Columbia's and
    // Alberta's differ between Node 20's and Node 24's ICU).
    expect(formatTime(instant, "en-CA", timeZoneOfProvince("NS"))).toBe("Nov 27, 2026, 11:41 p.m.");
    expect(zoneLabel("en-CA", timeZoneOfProvince("NS"))).toBe("Atlantic Time");
    expect(zoneLabel("fr-CA", timeZoneOfProvince(null))).toBe("heure de l’Est");
  });

  it("falls back to Toronto for no or an unknown province", () => {
    expect(timeZoneOfProvince(undefined)).toBe("America/Toronto");
    expect(timeZoneOfProvince("XX")).toBe("America/Toronto");
    expect(timeZoneOfProvince("toString")).toBe("America/Toronto");
  });

  it("says the time left in what a person acts on", () => {
    const at = (ms: number) => new Date(instant.getTime() + ms);
    expect(formatTimeLeft(instant, at(23 * 3_600_000 + 59 * 60_000), "en-CA")).toBe("in 23 hours");
    expect(formatTimeLeft(instant, at(40 * 60_000), "fr-CA")).toBe("dans 40 minutes");
    expect(formatTimeLeft(instant, at(10_000), "en-CA")).toBe("in 1 minute");
    expect(formatTimeLeft(instant, at(-1), "en-CA")).toBeUndefined();
  });
});
