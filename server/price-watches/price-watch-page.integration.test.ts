/**
 * The set email's cancel link and the dashboard's watch list: opening the link changes nothing,
 * its POST cancels once (again: already cancelled), a forged or foreign token is invalid_link; the
 * dashboard lists only the person's own watches with their assistant and cancels through the same
 * use case, another person's watch being not_found.
 */
import { describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { createLinkToken } from "../platform/mail/links";
import { watchCancelToken } from "./watch-emails";
import { shopperCaller } from "../testing/callers";
import { pageCaller } from "../testing/page-caller";
import { createBuyer, setWatch, watchableItem } from "../testing/watch-fixtures";

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: { code?: string; cause?: { code?: string } }) =>
      error.cause?.code ?? error.code ?? String(error),
  );

const newWatch = async () => {
  const buyer = await createBuyer();
  const { body } = await setWatch(buyer.token, {
    catalog_item_id: String((await watchableItem()).id),
    max_price: 80,
    max_total: 100,
  });
  return { ...buyer, id: body.price_watch_id as number };
};

/** The token in the set email's cancel link, as the person receives it. */
const tokenFromEmail = async (id: number) => {
  const email = await db().emailMessage.findUniqueOrThrow({
    where: { dedupeKey: `price-watch-set:${id}` },
  });
  return new URL((email.props as { cancelUrl: string }).cancelUrl).searchParams.get("token")!;
};

describe("price watch cancel link", () => {
  it("GET shows the watch and changes nothing; POST cancels once; again says already cancelled", async () => {
    const { id } = await newWatch();
    const token = await tokenFromEmail(id);
    for (let i = 0; i < 2; i++)
      expect(await pageCaller().priceWatchPage.inspectCancel({ id, token })).toMatchObject({
        price_watch_id: id,
        status: "active",
        can_cancel: true,
        max_price_cents: 8_000,
        max_total_cents: 10_000,
        size: "M",
        item: { priceCents: 10_000, condition: "good" },
        time_zone: "America/Toronto",
        checkout_url: null,
      });
    expect((await db().priceWatch.findUniqueOrThrow({ where: { id } })).status).toBe("active");
    expect(await pageCaller().priceWatchPage.cancel({ id, token })).toEqual({
      price_watch_id: id,
      already_cancelled: false,
    });
    expect(await pageCaller().priceWatchPage.cancel({ id, token })).toEqual({
      price_watch_id: id,
      already_cancelled: true,
    });
    expect(await pageCaller().priceWatchPage.inspectCancel({ id, token })).toMatchObject({
      status: "cancelled",
      outcome: "cancelled",
      can_cancel: false,
    });
  });

  it("a forged token, one for another watch or another purpose is refused with invalid_link", async () => {
    const { id } = await newWatch();
    const other = await newWatch();
    const watch = await db().priceWatch.findUniqueOrThrow({ where: { id: other.id } });
    for (const token of [
      "forged.token",
      watchCancelToken(watch),
      createLinkToken({
        purpose: "purchase-cancel",
        subject: String(id),
        expiresAt: new Date(Date.now() + 60_000),
      }),
    ]) {
      expect(await codeOf(pageCaller().priceWatchPage.inspectCancel({ id, token }))).toBe(
        "invalid_link",
      );
      expect(await codeOf(pageCaller().priceWatchPage.cancel({ id, token }))).toBe("invalid_link");
    }
    expect((await db().priceWatch.findUniqueOrThrow({ where: { id } })).status).toBe("active");
  });
});

describe("dashboard price watches", () => {
  it("lists the person's own watches with the assistant; cancels; another person's watch is not_found", async () => {
    const { person, agent, id } = await newWatch();
    const list = await shopperCaller(person.id).account.listMyWatches({ page: 1 });
    expect(list.watches).toHaveLength(1);
    expect(list.watches[0]).toMatchObject({
      price_watch_id: id,
      status: "active",
      assistant: agent.name,
      can_cancel: true,
      item: { priceCents: 10_000, condition: "good" },
    });
    expect(list.watches[0].item.imageUrl).toMatch(/^https?:\/\/.+\/images\/items\//);
    expect(list.time_zone).toBe("America/Toronto");
    const stranger = await newWatch();
    expect(
      await codeOf(shopperCaller(stranger.person.id).account.cancelMyWatch({ price_watch_id: id })),
    ).toBe("not_found");
    expect(await shopperCaller(person.id).account.cancelMyWatch({ price_watch_id: id })).toEqual({
      price_watch_id: id,
      already_cancelled: false,
    });
    expect(
      (await shopperCaller(person.id).account.listMyWatches({ page: 1 })).watches[0],
    ).toMatchObject({ status: "cancelled", can_cancel: false });
  });
});
