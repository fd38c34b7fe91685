/**
 * Rule of POST /purchases: the quote's address must be the one saved in the person's account
 * (address_not_on_file otherwise). Both go through the one address schema (ZCanadianAddressSchema),
 * so spelling of the postal code and the province's case never make a difference; the remaining
 * lines are compared without case and with runs of spaces as one. The phone is not compared.
 */
import { ZCanadianAddressSchema } from "../core/address";

export type SavedAddress = {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  province: string;
  postalCode: string;
  country: string;
};

const normalised = (input: unknown) => {
  const parsed = ZCanadianAddressSchema.safeParse(input);
  if (!parsed.success) return null;
  const { phone: _phone, ...address } = parsed.data;
  return Object.fromEntries(
    Object.entries(address).map(([name, value]) => [
      name,
      (value ?? "").replace(/\s+/g, " ").toLowerCase(),
    ]),
  );
};

export const isAddressOnFile = (quoteAddress: unknown, saved: SavedAddress | null) => {
  if (!saved) return false;
  const fromQuote = normalised({ ...(quoteAddress as object), phone: null });
  const fromAccount = normalised({
    name: saved.name,
    line1: saved.line1,
    line2: saved.line2,
    city: saved.city,
    province: saved.province,
    postal_code: saved.postalCode,
    country: saved.country,
  });
  return (
    fromQuote !== null &&
    fromAccount !== null &&
    JSON.stringify(fromQuote) === JSON.stringify(fromAccount)
  );
};
