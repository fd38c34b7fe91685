/**
 * The price chart, drawn without I/O: the step line over the window (the last 90 days or since
 * listed), held to now; the target line with its amount; the lowest price marked; an SVG that is
 * an image with a title and its summary in words (English and French); the same bytes for the same
 * input; an item that never changed; a sale under the target; and the email's PNG.
 */
import { describe, expect, it } from "vitest";
import { historyOf } from "../store/price-history";
import { chartDataOf } from "./chart-data";
import { priceChartPng } from "./price-chart-png";
import { priceChartSummary, priceChartSvg } from "./price-chart-svg";

const now = new Date("2026-12-01T12:00:00Z");
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

/** Listed Oct 1 at $120.00, $95.00 from Oct 20, $80.00 from Nov 15. */
const falling = historyOf({
  itemId: 1,
  listedAt: new Date("2026-10-01T12:00:00Z"),
  priceCents: 8_000,
  changes: [
    { oldPriceCents: 12_000, newPriceCents: 9_500, at: day("2026-10-20") },
    { oldPriceCents: 9_500, newPriceCents: 8_000, at: day("2026-11-15") },
  ],
  now,
});

const chart = (overrides: Partial<Parameters<typeof priceChartSvg>[0]> = {}) => ({
  history: falling,
  targetCents: 7_500,
  now,
  title: "Wool coat",
  ...overrides,
});

/** The d attribute of the step line (Plot's line mark). */
const linePath = (svg: string) => /data-mark="line"[^>]*><path d="([^"]+)"/.exec(svg)?.[1];

describe("the chart's data", () => {
  it("steps from the listing through each change, held until now", () => {
    const data = chartDataOf(falling, now);
    expect(data.from).toEqual(falling.listedAt);
    expect(data.steps).toEqual([
      { at: falling.listedAt, priceCents: 12_000 },
      { at: day("2026-10-20"), priceCents: 9_500 },
      { at: day("2026-11-15"), priceCents: 8_000 },
      { at: now, priceCents: 8_000 },
    ]);
    expect(data).toMatchObject({
      firstCents: 12_000,
      lastCents: 8_000,
      lowestCents: 8_000,
      lowestAt: day("2026-11-15"),
      hasChanged: true,
    });
  });

  it("looks back 90 days at most: a price that held into the window starts at its edge", () => {
    const old = historyOf({
      itemId: 2,
      listedAt: day("2026-01-01"),
      priceCents: 5_000,
      changes: [
        { oldPriceCents: 4_000, newPriceCents: 6_000, at: day("2026-03-01") },
        { oldPriceCents: 6_000, newPriceCents: 5_000, at: day("2026-11-01") },
      ],
      now,
    });
    const data = chartDataOf(old, now);
    const windowStart = new Date(now.getTime() - 90 * 86_400_000);
    expect(data.from).toEqual(windowStart);
    // The $40.00 of January is outside the window: the lowest shown is the window's.
    expect(data.steps.map((step) => step.priceCents)).toEqual([6_000, 5_000, 5_000]);
    expect(data.steps[0]!.at).toEqual(windowStart);
    expect(data.lowestCents).toBe(5_000);
  });
});

describe("the SVG", () => {
  it("is an image with a title and says the chart in words", () => {
    const svg = priceChartSvg(chart());
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toContain('role="img"');
    expect(svg).toContain("<title>Price history of Wool coat</title>");
    expect(svg).toContain(
      'aria-label="Price from $120.00 to $80.00 since Oct 1, 2026; target $75.00; lowest $80.00"',
    );
    expect(priceChartSummary(chart())).toBe(
      "Price from $120.00 to $80.00 since Oct 1, 2026; target $75.00; lowest $80.00",
    );
  });

  it("draws the step line, the labelled target line and the lowest price's dot", () => {
    const svg = priceChartSvg(chart());
    // Three levels, two steps down, and a last level held to the right edge (x = width - margin).
    const path = linePath(svg)!;
    expect(path.match(/L/g)).toHaveLength(6);
    expect(path).toMatch(/L612,[\d.]+$/);
    expect(svg).toMatch(/data-mark="rule"[^>]*><line [^>]*x2="612" x1="64"/);
    expect(svg).toContain("stroke-dasharray");
    expect(svg).toContain(">Target $75.00</text>");
    expect(svg).toMatch(/data-mark="dot"[^>]*><circle r="4"/);
    expect(svg).toContain(">Lowest $80.00</text>");
    expect(svg).toContain(">$120.00</text>");
  });

  it("is the same bytes for the same input, and another for another target", () => {
    expect(priceChartSvg(chart())).toBe(priceChartSvg(chart()));
    expect(priceChartSvg(chart({ targetCents: 9_000 }))).not.toBe(priceChartSvg(chart()));
  });

  it("an item that never changed: a flat line and a sentence that says so", () => {
    const steady = historyOf({
      itemId: 3,
      listedAt: new Date("2026-11-20T12:00:00Z"),
      priceCents: 4_999,
      changes: [],
      now,
    });
    const svg = priceChartSvg(chart({ history: steady, targetCents: 4_000 }));
    // One level from the listing to the right edge.
    const levels = new Set(linePath(svg)!.match(/,[\d.]+/g));
    expect(levels.size).toBe(1);
    expect(linePath(svg)).toMatch(/L612,[\d.]+$/);
    expect(priceChartSummary(chart({ history: steady, targetCents: 4_000 }))).toBe(
      "Price $49.99 since Nov 20, 2026, unchanged; target $40.00",
    );
    expect(svg).toContain(">Lowest $49.99</text>");
  });

  it("a sale under the target: the lowest is the sale's price, after the target is crossed", () => {
    const sale = historyOf({
      itemId: 4,
      listedAt: new Date("2026-11-01T12:00:00Z"),
      priceCents: 6_000,
      changes: [
        { oldPriceCents: 10_000, newPriceCents: 7_000, at: day("2026-11-25") },
        { oldPriceCents: 7_000, newPriceCents: 6_000, at: day("2026-11-28") },
      ],
      now,
    });
    expect(priceChartSummary(chart({ history: sale, targetCents: 8_000 }))).toBe(
      "Price from $100.00 to $60.00 since Nov 1, 2026; target $80.00; lowest $60.00",
    );
    expect(priceChartSvg(chart({ history: sale, targetCents: 8_000 }))).toContain(
      ">Target $80.00</text>",
    );
  });

  it("an item listed a moment ago still has a width of time", () => {
    const fresh = historyOf({ itemId: 5, listedAt: now, priceCents: 1_000, changes: [], now });
    expect(linePath(priceChartSvg(chart({ history: fresh })))).toMatch(/^M[\d.]+,[\d.]+L612,/);
  });

  it("in French: the words and the amounts as French reads them", () => {
    const summary = priceChartSummary(chart({ locale: "fr-CA" })).replace(/[\u00a0\u202f]/g, " ");
    expect(summary).toBe(
      "Prix de 120,00 $ à 80,00 $ depuis le 1 oct. 2026; cible 75,00 $; plus bas 80,00 $",
    );
  });

  it("escapes the item's title: the SVG goes into the page as it is", () => {
    const svg = priceChartSvg(chart({ title: '</title><script>alert(1)</script>"&' }));
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("<title>Price history of &lt;/title&gt;&lt;script&gt;");
  });
});

describe("the PNG", () => {
  const pngOf = () => priceChartPng({ history: falling, targetCents: 7_500, now });

  it("is a small 560×200 PNG, the same bytes each time", async () => {
    const png = await pngOf();
    expect(png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(png.subarray(12, 16).toString("ascii")).toBe("IHDR");
    expect(png.readUInt32BE(16)).toBe(560);
    expect(png.readUInt32BE(20)).toBe(200);
    expect(png.length).toBeLessThan(20_000);
    expect((await pngOf()).equals(png)).toBe(true);
  });
});
