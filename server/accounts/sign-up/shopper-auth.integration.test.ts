/**
 * Sign-up, email confirmation and password reset, with the emails delivered over real SMTP
 * (server/testing/smtp-capture.ts) and the links followed the way a person follows them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPerson } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { deliverDueEmails, smtpTransport } from "../../platform/mail/sender";
import { verifyCredentials } from "../../auth/next-auth";
import { isSessionCurrent } from "../../auth/session";
import { shopperCaller, visitorCaller } from "../../testing/callers";
import { failureOf as failure } from "../../testing/oauth";
import { startSmtpCapture } from "../../testing/smtp-capture";

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(() => smtp.stop());

const visitor = visitorCaller();

/** Sends what the outbox holds and returns the newest email to `address` with the link it carries. */
const deliveredLink = async (address: string, path: string) => {
  await deliverDueEmails({ db: db(), now: new Date(), transport: smtpTransport(smtp.url) });
  const email = [...smtp.messages].reverse().find((message) => message.to.includes(address));
  if (!email) throw new Error(`no email to ${address}`);
  const match = new RegExp(`https?://[^\\s"<>]+${path}\\?token=([^\\s"<>&]+)`).exec(email.text);
  return { email, token: match ? decodeURIComponent(match[1]) : undefined };
};

const unique = () => Math.random().toString(36).slice(2, 10);

describe("sign-up and email confirmation", () => {
  it("signs up, emails a link whose page confirms only on POST", async () => {
    const email = `new-${unique()}@example.ca`;
    expect(
      await visitor.shopperAuth.signUp({
        email: email.toUpperCase(),
        password: "a long enough password",
        name: "Nadia",
      }),
    ).toEqual({ email, confirmation_sent: true });
    const person = await db().person.findUniqueOrThrow({ where: { email } });
    expect(person.passwordHash).toMatch(/^scrypt\$/);
    expect(person.emailVerifiedAt).toBeNull();
    const { email: message, token } = await deliveredLink(email, "/verify-email");
    expect(message.subject).toBe("Confirm your email address");
    expect(token).toBeTruthy();
    // Opening the link (what a mail scanner does) changes nothing.
    expect(await visitor.shopperAuth.inspectConfirmation({ token: token! })).toEqual({
      email,
      already_confirmed: false,
    });
    expect((await db().person.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).toBeNull();
    expect(await visitor.shopperAuth.confirmEmail({ token: token! })).toEqual({
      email,
      confirmed: true,
    });
    expect(
      (await db().person.findUniqueOrThrow({ where: { email } })).emailVerifiedAt,
    ).toBeInstanceOf(Date);
    // Confirming twice is harmless.
    expect((await visitor.shopperAuth.confirmEmail({ token: token! })).confirmed).toBe(true);
    expect(await verifyCredentials(email, "a long enough password")).toMatchObject({
      id: person.id,
      email,
    });
  });

  it("an address that has an account gets an email saying so; the visitor sees the same answer", async () => {
    const { person } = await createPerson();
    expect(
      await visitor.shopperAuth.signUp({
        email: person.email,
        password: "another long password",
        name: null,
      }),
    ).toEqual({ email: person.email, confirmation_sent: true });
    expect(await db().person.count({ where: { email: person.email } })).toBe(1);
    const { email } = await deliveredLink(person.email, "/sign-in");
    expect(email.subject).toBe("You already have an account");
    expect(await verifyCredentials(person.email, "another long password")).toBeNull();
  });

  it("refuses a short password and a malformed email with field errors", async () => {
    const error = await failure(
      visitor.shopperAuth.signUp({ email: "not-an-email", password: "short", name: null }),
    );
    expect(error.options.fields).toEqual({
      email: "must be an email address",
      password: "must be at least 10 characters",
    });
  });

  it("a forged or expired link, or one for an address the person since changed, confirms nothing", async () => {
    expect((await failure(visitor.shopperAuth.confirmEmail({ token: "forged.token" }))).code).toBe(
      "invalid_link",
    );
    const email = `change-${unique()}@example.ca`;
    await visitor.shopperAuth.signUp({ email, password: "a long enough password", name: null });
    const { token } = await deliveredLink(email, "/verify-email");
    const person = await db().person.findUniqueOrThrow({ where: { email } });
    await db().person.update({
      where: { id: person.id },
      data: { email: `changed-${unique()}@example.ca` },
    });
    expect((await failure(visitor.shopperAuth.confirmEmail({ token: token! }))).code).toBe(
      "invalid_link",
    );
    expect(
      (await db().person.findUniqueOrThrow({ where: { id: person.id } })).emailVerifiedAt,
    ).toBeNull();
  });

  it("a new confirmation email goes at most once per throttle window", async () => {
    const { person } = await createPerson({ verified: false });
    const shopper = shopperCaller(person.id);
    for (let i = 0; i < 3; i++) await shopper.shopperAuth.resendConfirmation();
    expect(
      await db().emailMessage.count({ where: { to: person.email, template: "verify-email" } }),
    ).toBe(1);
  });
});

describe("password reset", () => {
  it("emails a one-hour link; the new password works, the old does not, and the link dies", async () => {
    const { person, password } = await createPerson({ verified: false });
    expect(await visitor.shopperAuth.requestPasswordReset({ email: person.email })).toEqual({
      email: person.email,
      sent_if_registered: true,
    });
    const { email, token } = await deliveredLink(person.email, "/reset-password");
    expect(email.subject).toBe("Reset your password");
    expect(await visitor.shopperAuth.inspectPasswordReset({ token: token! })).toEqual({
      email: person.email,
    });
    const signedInBefore = Date.now() - 1000;
    expect(
      await visitor.shopperAuth.resetPassword({
        token: token!,
        password: "my brand new passphrase",
      }),
    ).toEqual({ email: person.email, reset: true });
    expect(await verifyCredentials(person.email, "my brand new passphrase")).toMatchObject({
      id: person.id,
    });
    expect(await verifyCredentials(person.email, password)).toBeNull();
    expect(
      (
        await failure(
          visitor.shopperAuth.resetPassword({ token: token!, password: "yet another passphrase" }),
        )
      ).code,
    ).toBe("invalid_link");
    const after = await db().person.findUniqueOrThrow({ where: { id: person.id } });
    // Receiving the email proved the address; sessions from before the reset end.
    expect(after.emailVerifiedAt).toBeInstanceOf(Date);
    expect(isSessionCurrent(signedInBefore, after.passwordChangedAt)).toBe(false);
    expect(isSessionCurrent(Date.now(), after.passwordChangedAt)).toBe(true);
  });

  it("answers the same for an unknown address and sends nothing", async () => {
    const email = `nobody-${unique()}@example.ca`;
    expect(await visitor.shopperAuth.requestPasswordReset({ email })).toEqual({
      email,
      sent_if_registered: true,
    });
    expect(await db().emailMessage.count({ where: { to: email } })).toBe(0);
  });

  it("refuses a forged token and a short new password", async () => {
    expect(
      (
        await failure(
          visitor.shopperAuth.resetPassword({
            token: "forged.token",
            password: "a long enough password",
          }),
        )
      ).code,
    ).toBe("invalid_link");
    expect(
      (await failure(visitor.shopperAuth.resetPassword({ token: "x", password: "short" }))).options
        .fields,
    ).toEqual({ password: "must be at least 10 characters" });
  });
});
