/**
 * One Canadian address rule: the account's saved address and a quote's shipping address accept or
 * refuse the same spelling alike, and normalise it alike (a purchase compares the two).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPerson, createStore } from "../../prisma/factories";
import { partnerCaller, shopperCaller } from "../testing/callers";
import { failureOf } from "../testing/oauth";

let itemId: number;
beforeAll(async () => {
  itemId = (await createItem({ storeId: (await createStore()).id })).id;
});

const base = {
  name: "Ana Tremblay",
  line1: "24 Sussex Dr",
  city: "Ottawa",
  province: "ON",
  postal_code: "K1A 0B1",
  country: "CA",
};

/** What each procedure makes of the address: the normalised province and postal code, or the field errors. */
const viaAccount = async (address: Record<string, unknown>) => {
  const { person } = await createPerson();
  const call = shopperCaller(person.id).account.saveShippingAddress(address as never);
  const saved = await call.catch(() => undefined);
  if (saved) return { province: saved.province, postal_code: saved.postal_code };
  return { fields: (await failureOf(call)).options.fields };
};

const viaQuote = async (address: Record<string, unknown>) => {
  const call = partnerCaller().checkout.createQuote({
    items: [{ item_id: itemId }],
    shipping_address: address as never,
  });
  const quote = await call.catch(() => undefined);
  if (quote)
    return {
      province: quote.shipping_address.province,
      postal_code: quote.shipping_address.postal_code,
    };
  const fields = (await failureOf(call)).options.fields ?? {};
  return {
    fields: Object.fromEntries(
      Object.entries(fields).map(([name, message]) => [
        name.replace(/^shipping_address\./, ""),
        message,
      ]),
    ),
  };
};

describe("the account and quotes read a Canadian address alike", () => {
  it.each<[string, Record<string, string>]>([
    ["K1A 0B1", { postal_code: "K1A 0B1" }],
    ["k1a0b1", { postal_code: "k1a0b1" }],
    ["K1A-0B1", { postal_code: "K1A-0B1" }],
    ["two spaces, padded", { postal_code: " k1a  0b1 " }],
    ["a lower-case province", { province: "on" }],
    ["a malformed code", { postal_code: "K1A 0B" }],
    ["a letter Canada Post never uses", { postal_code: "K1O 0B1" }],
    ["a US ZIP code", { postal_code: "90210" }],
    ["a code of another province", { postal_code: "H2X 1Y4" }],
    ["an unknown province", { province: "ZZ" }],
    ["a territory sharing X", { province: "NU", city: "Iqaluit", postal_code: "x0a0h0" }],
  ])("%s", async (_case, patch) => {
    const address = { ...base, ...patch };
    const [account, quote] = await Promise.all([viaAccount(address), viaQuote(address)]);
    expect(quote).toEqual(account);
  });
});
