/**
 * The sandbox mailbox shows a signed-in person only the mail sent to their own confirmed address
 * (before confirming: only the confirmation email itself); nobody else's, not even by id. The
 * operator reads any message with `npm run ops -- mail:list` / `mail:show`.
 */
import { describe, expect, it } from "vitest";
import { createPerson } from "../../prisma/factories";
import { db } from "../platform/db";
import { deliverDueEmails } from "../platform/mail/sender";
import { shopperCaller, visitorCaller } from "../testing/callers";
import { failureOf } from "../testing/oauth";

const deliver = () => deliverDueEmails({ db: db(), now: new Date(), limit: 100 });
const unique = () => Math.random().toString(36).slice(2, 10);

describe("sandbox mailbox", () => {
  it("person B can neither list nor open A's mail, including a password reset B asked for", async () => {
    const { person: alice } = await createPerson();
    const { person: bob } = await createPerson();
    await visitorCaller().shopperAuth.requestPasswordReset({ email: alice.email });
    await visitorCaller().shopperAuth.requestPasswordReset({ email: bob.email });
    await deliver();
    const aliceReset = await db().emailMessage.findFirstOrThrow({
      where: { to: alice.email, template: "reset-password" },
    });

    const bobsMail = await shopperCaller(bob.id).mailbox.list({});
    expect(bobsMail.length).toBeGreaterThan(0);
    expect(bobsMail.every((message) => message.to === bob.email)).toBe(true);
    expect(await shopperCaller(bob.id).mailbox.list({ to: alice.email })).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ to: alice.email })]),
    );
    expect((await failureOf(shopperCaller(bob.id).mailbox.html({ id: aliceReset.id }))).code).toBe(
      "not_found",
    );

    expect((await shopperCaller(alice.id).mailbox.list({})).map((message) => message.id)).toContain(
      aliceReset.id,
    );
    expect(await shopperCaller(alice.id).mailbox.html({ id: aliceReset.id })).toContain("password");
  });

  it("a visitor who is not signed in sees nothing", async () => {
    expect((await failureOf(visitorCaller().mailbox.list({}))).code).toBe("unauthorized");
    const any = await db().emailMessage.findFirst({ where: { status: "sent" } });
    expect((await failureOf(visitorCaller().mailbox.html({ id: any?.id ?? "eml_x" }))).code).toBe(
      "unauthorized",
    );
  });

  it("before confirming, a new person sees only their confirmation email; mail to their address from before the account stays hidden", async () => {
    const email = `mb-${unique()}@example.ca`;
    // Someone else made this address receive a reset attempt before the account existed: nothing is sent, but other mail could be.
    await db().emailMessage.create({
      data: {
        id: `eml_${unique()}`,
        to: email,
        template: "reset-password",
        props: {},
        status: "sent",
        subject: "Earlier mail",
        text: "secret",
        html: "<p>secret</p>",
        sentAt: new Date(Date.now() - 60_000),
        createdAt: new Date(Date.now() - 60_000),
      },
    });
    await visitorCaller().shopperAuth.signUp({
      email,
      password: "a long enough password",
      name: null,
    });
    await deliver();
    const person = await db().person.findUniqueOrThrow({ where: { email } });
    const unconfirmed = await shopperCaller(person.id).mailbox.list({});
    expect(unconfirmed.map((message) => message.subject)).toEqual(["Confirm your email address"]);
    await db().person.update({ where: { id: person.id }, data: { emailVerifiedAt: new Date() } });
    expect(
      (await shopperCaller(person.id).mailbox.list({})).map((message) => message.subject),
    ).not.toContain("Earlier mail");
  });
});
