/** L1 (issue 24): an amount past the documented bound is a 422 naming the field, never a throw (a 500). */
import { describe, expect, it } from "vitest";
import { ZCreatePriceWatchBody } from "../price-watches/price-watch.schema";
import { ZCreatePriceAlertBody } from "../price-alerts/price-alert.schema";
import { ZSetSpendingLimitsInput } from "../accounts/account.schema";
import { ZSetItemPriceBody } from "../sandbox/sandbox.schema";
import { ZAmountInput } from "./money-input";

const issuesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((issue) => `${issue.path.join(".")}: ${issue.message}`);

describe("money inputs past the upper bound", () => {
  it.each([
    ["10000000.00", "80"],
    ["80", "10000000.00"],
    ["999999999.99", "999999999.99"],
    [1e9, 1e9],
    [1e300, 80],
    ["123456789012345678901234567890", 80],
  ])(
    "a price watch with max_price %s and max_total %s is refused with the field named",
    (maxPrice, maxTotal) => {
      const result = ZCreatePriceWatchBody.safeParse({
        catalog_item_id: "1",
        max_price: maxPrice,
        max_total: maxTotal,
      });
      expect(result.success).toBe(false);
      const issues = issuesOf(result);
      expect(
        issues.some((issue) => /^max_(price|total): must be at most 1,?000,?000\.00$/.test(issue)),
      ).toBe(true);
    },
  );

  it("the bound itself is accepted", () => {
    expect(
      ZCreatePriceWatchBody.safeParse({
        catalog_item_id: "1",
        max_price: "1000000.00",
        max_total: "1000000",
      }).success,
    ).toBe(true);
    expect(ZAmountInput.safeParse("1000000.01").success).toBe(false);
  });

  it("a price alert, a sandbox price and spending limits past the bound are refused, not thrown", () => {
    expect(
      issuesOf(
        ZCreatePriceAlertBody.safeParse({ catalog_item_id: "1", target_price: "999999999.99" }),
      ),
    ).toEqual([expect.stringMatching(/^target_price: must be at most/)]);
    expect(issuesOf(ZSetItemPriceBody.safeParse({ price: "999999999.99" }))).toEqual([
      expect.stringMatching(/^price: must be at most/),
    ]);
    expect(
      issuesOf(
        ZSetSpendingLimitsInput.safeParse({
          limit_per_order: "999999999.99",
          limit_per_30_days: "100",
        }),
      ),
    ).toEqual([expect.stringMatching(/^limit_per_order: must be at most 50,?000\.00$/)]);
  });
});
