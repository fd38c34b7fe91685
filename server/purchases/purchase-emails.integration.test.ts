/**
 * The purchase emails' writers: the copy (written with the hold) and the closed email carry what was
 * bought (the purchase's OrderSummary), the assistant's name, ISO times, and the person's locale and
 * zone (their saved language, their saved province's zone); pictures are absolute. Rendered from
 * the props as stored, they read in that language.
 */
import { describe, expect, it } from "vitest";
import { createPerson } from "../../prisma/factories";
import { createHeldPurchase } from "../../prisma/factories/purchases";
import { renderEmail } from "../../emails/render";
import type { PurchaseCopyProps } from "../../emails/purchase-copy";
import type { PurchaseClosedProps } from "../../emails/purchase-closed";
import { db } from "../platform/db";
import { env } from "../platform/env";
import { sandboxProvider } from "../payments/sandbox";
import { cancelPurchase } from "./cancel-purchase";
import { copyEmailKey } from "./purchase-emails";

const emailProps = async <P>(dedupeKey: string) =>
  (await db().emailMessage.findUniqueOrThrow({ where: { dedupeKey } })).props as P;

/** A person who reads French and lives in British Columbia. */
const frenchPersonInBc = async () => {
  const { person } = await createPerson();
  await db().$executeRaw`UPDATE persons SET language = 'fr' WHERE id = ${person.id}`;
  await db().shippingAddress.create({
    data: {
      personId: person.id,
      name: "Élise Gagnon",
      line1: "800 Robson St",
      city: "Vancouver",
      province: "BC",
      postalCode: "V6Z 2E7",
    },
  });
  return person;
};

describe("purchase email writers", () => {
  it("the copy carries the summary, the assistant, ISO times and the person's language and zone", async () => {
    const person = await frenchPersonInBc();
    const { purchase, agent, item } = await createHeldPurchase({ person });
    const props = await emailProps<PurchaseCopyProps>(copyEmailKey(purchase.id));
    expect(props).toMatchObject({
      locale: "fr-CA",
      timeZone: "America/Vancouver",
      orderNumber: purchase.orderNumber,
      assistant: agent.name,
      chargesAt: purchase.chargesAt!.toISOString(),
      cancelUntil: purchase.cancelUntil.toISOString(),
    });
    expect(Date.parse(props.writtenAt)).not.toBeNaN();
    expect(new URL(props.cancelUrl).pathname).toBe(`/purchases/${purchase.id}/cancel`);
    expect(props.summary.orderNumber).toBe(purchase.orderNumber);
    expect(props.summary.stores).toHaveLength(1);
    expect(props.summary.stores[0].items[0]).toMatchObject({ title: item.title, size: "M" });
    expect(props.summary.totals.totalCents).toBe(props.summary.stores[0].totals.totalCents);
    expect(props.summary.shipTo[0]).toBe("Ana Tremblay");

    const email = await renderEmail("purchase-copy", props);
    expect(email.subject).toContain(`a acheté la commande ${purchase.orderNumber}`);
    expect(email.subject).toContain("heure du Pacifique");
    expect(email.text).toContain(item.title);
    expect(email.text).toContain(props.cancelUrl);
  });

  it("a person with no saved language or address gets English and Toronto's zone", async () => {
    const { purchase } = await createHeldPurchase();
    expect(await emailProps<PurchaseCopyProps>(copyEmailKey(purchase.id))).toMatchObject({
      locale: "en-CA",
      timeZone: "America/Toronto",
    });
  });

  it("the closed email after a cancel: the outcome, the summary with absolute pictures, the assistant, the person's language", async () => {
    const person = await frenchPersonInBc();
    const { purchase, agent, item, quote } = await createHeldPurchase({ person });
    // The catalogue stores its own pictures as /images/…: the email needs them absolute.
    await db().$executeRaw`
      UPDATE quotes SET snapshot = jsonb_set(snapshot, '{stores,0,lines,0,imageUrl}', '"/images/items/7/1.svg"')
      WHERE id = ${quote.id}`;
    const now = new Date();
    await cancelPurchase(db(), sandboxProvider(), { id: purchase.id, now, by: "person" });
    const props = await emailProps<PurchaseClosedProps>(`purchase-closed:${purchase.id}`);
    expect(props).toMatchObject({
      locale: "fr-CA",
      timeZone: "America/Vancouver",
      outcome: "cancelled",
      assistant: agent.name,
      orderNumber: purchase.orderNumber,
      closedAt: now.toISOString(),
    });
    expect(props.summary.stores[0].items[0]).toMatchObject({
      title: item.title,
      imageUrl: `${env().PUBLIC_URL}/images/items/7/1.svg`,
    });
    const email = await renderEmail("purchase-closed", props);
    expect(email.subject).toBe(`Commande ${purchase.orderNumber} : votre achat est annulé`);
    expect(email.text).toContain(item.title);
    expect(email.html).toContain(`src="${env().PUBLIC_URL}/images/items/7/1.svg"`);
  });
});
