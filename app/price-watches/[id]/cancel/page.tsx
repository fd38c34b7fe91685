import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { pageCaller } from "@/app/_trpc/server";
import { cancelWatchAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Cancel a price watch · Shopping API" };

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-CA", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }) + " UTC";

const endedTexts: Record<string, string> = {
  cancelled: "This price watch is cancelled. Nothing will be bought.",
  fulfilled:
    "This price watch already bought the item. You can cancel that purchase from its own email before the card is charged.",
  executing:
    "This price watch is buying the item right now; it can no longer be cancelled. You can cancel the purchase from its email.",
  needs_you: "This price watch ended: it needs you to pay through the link we emailed.",
  item_sold: "This price watch ended: the item sold to someone else.",
  expired: "This price watch ended: its time ran out.",
};

/**
 * Where the set email's cancel link lands. Opening it changes nothing (mail scanners open links):
 * it shows the watch and a Cancel button, which posts the cancel.
 */
export default async function CancelWatchPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ token?: string }>;
}) {
  const { id } = await params;
  const token = (await searchParams).token ?? "";
  const watch = await (
    await pageCaller()
  ).priceWatchPage
    .inspectCancel({ id: Number(id), token })
    .catch(() => undefined);
  if (!watch) {
    return (
      <section className="auth-card">
        <h1>This link is not valid</h1>
        <p className="lede">Use the cancel link in the email we sent you about this price watch.</p>
      </section>
    );
  }
  return (
    <section className="auth-card" aria-labelledby="cancel-title">
      <h1 id="cancel-title">Price watch on {watch.title}</h1>
      <p className="lede">
        Buys it for you at ${watch.max_price} CAD or less, ${watch.max_total} CAD at most with
        shipping and tax, until {when(watch.expires_at)}.
      </p>
      {watch.can_cancel ? (
        <ActionForm action={cancelWatchAction}>
          <input type="hidden" name="id" value={watch.price_watch_id} />
          <input type="hidden" name="token" value={token} />
          <FormMessage />
          <SubmitButton className="button primary block">Cancel this price watch</SubmitButton>
        </ActionForm>
      ) : (
        <div className="notice">
          <p>{endedTexts[watch.status] ?? "This price watch has ended."}</p>
        </div>
      )}
    </section>
  );
}
