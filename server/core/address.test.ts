/** The one Canadian address rule: postal code spellings, the province check, and the schema's field errors. */
import { describe, expect, it } from "vitest";
import { normalizePostalCode, postalCodeMatchesProvince, ZCanadianAddressSchema } from "./address";
import { provinceCodes, provinces } from "./provinces";

describe("Canadian postal codes", () => {
  it.each([
    ["k1a0b1", "K1A 0B1"],
    ["K1A 0B1", "K1A 0B1"],
    ["K1A-0B1", "K1A 0B1"],
    [" m5v-3l9 ", "M5V 3L9"],
    ["H2X  1Y4", "H2X 1Y4"],
    ["H2X - 1Y4", "H2X 1Y4"],
    ["X0A 0H0", "X0A 0H0"],
  ])("normalises %s to %s", (input, expected) => {
    expect(normalizePostalCode(input)).toBe(expected);
  });

  it.each([
    "12345",
    "K1A 0B",
    "D1A 0B1",
    "W1A 0B1",
    "Z1A 0B1",
    "K1O 0B1",
    "K1A 0BU",
    "K1A0B1X",
    "",
    "KIA OBI",
    "K1A--0B1",
    "K-1A0B1",
  ])("refuses %s", (input) => {
    expect(normalizePostalCode(input)).toBeUndefined();
  });

  it("knows all 13 provinces and territories, each with postal letters", () => {
    expect(provinceCodes).toHaveLength(13);
    expect(provinceCodes.every((code) => /^[A-Z]+$/.test(provinces[code].postalLetters))).toBe(
      true,
    );
  });

  it("checks the first letter against the province", () => {
    expect(postalCodeMatchesProvince("M5V 3L9", "ON")).toBe(true);
    expect(postalCodeMatchesProvince("K1A 0B1", "ON")).toBe(true);
    expect(postalCodeMatchesProvince("K1A 0B1", "QC")).toBe(false);
    expect(postalCodeMatchesProvince("H2X 1Y4", "QC")).toBe(true);
    expect(postalCodeMatchesProvince("X0A 0H0", "NU")).toBe(true);
    expect(postalCodeMatchesProvince("X1A 2B3", "NT")).toBe(true);
    expect(postalCodeMatchesProvince("M5V 3L9", "BC")).toBe(false);
    expect(postalCodeMatchesProvince("V6B 1A1", "BC")).toBe(true);
  });
});

describe("ZCanadianAddressSchema", () => {
  const address = {
    name: "Ana Silva",
    line1: "290 Bremner Blvd",
    city: "Toronto",
    province: "ON",
    postal_code: "m5v3l9",
  };
  const fields = (input: unknown) => {
    const result = ZCanadianAddressSchema.safeParse(input);
    return result.success
      ? {}
      : Object.fromEntries(
          result.error.issues.map((issue) => [issue.path.join("."), issue.message]),
        );
  };

  it("normalises: upper-case province and country, A1A 1A1, absent lines as null, CA by default", () => {
    expect(
      ZCanadianAddressSchema.parse({ ...address, province: " on ", line2: "", country: "ca" }),
    ).toEqual({
      name: "Ana Silva",
      line1: "290 Bremner Blvd",
      line2: null,
      city: "Toronto",
      province: "ON",
      postal_code: "M5V 3L9",
      country: "CA",
      phone: null,
    });
    expect(ZCanadianAddressSchema.parse(address).country).toBe("CA");
  });

  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    [
      "a malformed postal code",
      { postal_code: "12345" },
      { postal_code: "must be a Canadian postal code like K1A 0B1" },
    ],
    [
      "a postal code of another province",
      { province: "BC" },
      { postal_code: "is not a postal code of British Columbia" },
    ],
    [
      "an unknown province",
      { province: "ZZ" },
      { province: `must be one of ${provinceCodes.join(", ")}` },
    ],
    [
      "a US address",
      { country: "US" },
      { country: "must be CA: the stores ship to Canadian addresses only" },
    ],
    ["no street", { line1: " " }, { line1: "is required" }],
    ["a phone that is not one", { phone: "call me" }, { phone: "must be a phone number" }],
    ["an unknown member", { zip: "90210" }, { "": 'Unrecognized key: "zip"' }],
  ])("refuses %s, naming the field", (_case, patch, expected) => {
    expect(fields({ ...address, ...patch })).toEqual(expected);
  });
});
