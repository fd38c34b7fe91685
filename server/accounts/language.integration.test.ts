/**
 * The saved language (issue 27): the person's own row only, en or fr only, read back by the
 * account pages but never by GET /me; and the account emails (confirm, reset, account exists) are
 * written in the saved language, else the page's, else English.
 */
import { describe, expect, it } from "vitest";
import { createPerson } from "../../prisma/factories";
import { renderEmail } from "../../emails/render";
import { db } from "../platform/db";
import { shopperCaller as shopper, visitorCaller } from "../testing/callers";
import { failureOf as failure } from "../testing/oauth";

const unique = () => Math.random().toString(36).slice(2, 10);

/** The newest outbox email of this template to this address: its locale and rendered subject. */
const written = async (to: string, template: string) => {
  const row = await db().emailMessage.findFirstOrThrow({
    where: { to, template },
    orderBy: { createdAt: "desc" },
  });
  const props = row.props as { locale?: string };
  const { subject } = await renderEmail(template as "verify-email", props);
  return { locale: props.locale, subject };
};

describe("the saved language", () => {
  it("is saved on the person's own row only and read back by the account pages", async () => {
    const { person } = await createPerson();
    const { person: other } = await createPerson();
    expect(await shopper(person.id).account.getPreferences()).toEqual({
      language: null,
      time_zone: "America/Toronto",
    });
    expect(await shopper(person.id).account.setLanguage({ language: "fr" })).toEqual({
      language: "fr",
    });
    expect((await shopper(person.id).account.getPreferences()).language).toBe("fr");
    expect((await shopper(other.id).account.getPreferences()).language).toBeNull();
    expect((await db().person.findUniqueOrThrow({ where: { id: other.id } })).language).toBeNull();
    expect(await shopper(person.id).account.setLanguage({ language: "en" })).toEqual({
      language: "en",
    });
  });

  it("refuses a language other than en or fr, and a visitor", async () => {
    const { person } = await createPerson();
    const refused = await failure(
      shopper(person.id).account.setLanguage({ language: "de" as "en" }),
    );
    expect(refused.code).toBe("invalid_request");
    expect(refused.options.fields).toEqual({ language: "must be en or fr" });
    expect((await db().person.findUniqueOrThrow({ where: { id: person.id } })).language).toBeNull();
    expect((await failure(visitorCaller().account.setLanguage({ language: "fr" }))).code).toBe(
      "unauthorized",
    );
  });

  it("stays out of GET /me's answer", async () => {
    const { person } = await createPerson();
    await shopper(person.id).account.setLanguage({ language: "fr" });
    expect(Object.keys(await shopper(person.id).account.getMe()).sort()).toEqual([
      "email",
      "email_verified",
      "name",
      "sizes",
    ]);
  });

  it("the zone follows the saved address's province", async () => {
    const { person } = await createPerson();
    await shopper(person.id).account.saveShippingAddress({
      name: "Léa Roy",
      line1: "1 Main St",
      line2: null,
      city: "Vancouver",
      province: "BC",
      postal_code: "V6B 1A1",
      phone: null,
    });
    expect((await shopper(person.id).account.getPreferences()).time_zone).toBe("America/Vancouver");
  });
});

describe("the language of account emails", () => {
  const visitor = visitorCaller();

  it("sign-up: the page's language (French), else English", async () => {
    const french = `fr-${unique()}@example.ca`;
    await visitor.shopperAuth.signUp({
      email: french,
      password: "a long enough password",
      name: null,
      locale: "fr-CA",
    });
    expect(await written(french, "verify-email")).toEqual({
      locale: "fr-CA",
      subject: "Confirmez votre adresse courriel",
    });
    const plain = `en-${unique()}@example.ca`;
    await visitor.shopperAuth.signUp({ email: plain, password: "a long enough password" });
    expect(await written(plain, "verify-email")).toEqual({
      locale: "en-CA",
      subject: "Confirm your email address",
    });
  });

  it("the saved language beats the page's: reset and account-exists", async () => {
    const { person } = await createPerson();
    await shopper(person.id).account.setLanguage({ language: "fr" });
    await visitor.shopperAuth.requestPasswordReset({ email: person.email, locale: "en-CA" });
    expect(await written(person.email, "reset-password")).toEqual({
      locale: "fr-CA",
      subject: "Réinitialisez votre mot de passe",
    });
    await visitor.shopperAuth.signUp({
      email: person.email,
      password: "another long password",
      locale: "en-CA",
    });
    expect(await written(person.email, "account-exists")).toEqual({
      locale: "fr-CA",
      subject: "Vous avez déjà un compte",
    });
  });

  it("a new confirmation link from a French page, with nothing saved, is French", async () => {
    const { person } = await createPerson({ verified: false });
    await shopper(person.id).shopperAuth.resendConfirmation({ locale: "fr-CA" });
    expect(await written(person.email, "verify-email")).toEqual({
      locale: "fr-CA",
      subject: "Confirmez votre adresse courriel",
    });
  });
});
