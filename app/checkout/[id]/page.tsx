/**
 * The hosted checkout (checkout_url), in the reader's language (the `lang` cookie, else
 * Accept-Language: there may be no person): review items by store, the address, shipping choice per
 * store, tax lines and totals, accept the terms and pay. Every amount comes from the checkout's
 * quote snapshot through the page procedures; nothing is priced here. Times are in the zone of the
 * ship-to province, named once. A closed checkout says what happened and what to do, and never
 * shows a pay button; a paid one shows the order and what was bought.
 */
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { pageCaller } from "@/app/_trpc/server";
import { WhatWasBought } from "@/app/_components/what-was-bought";
import { ZoneNote } from "@/app/_components/zone-note";
import { env } from "@/server/platform/env";
import { toAppError } from "@/server/platform/http/respond";
import { formatMoney, formatTime, formatTimeLeft, type Locale } from "@/server/core/locale";
import type { CheckoutPageView } from "@/server/checkout";
import { FocusState } from "./focus-state";
import { OpenCheckout } from "./open-checkout";
import { type PaymentPanel, PayForm } from "./pay-form";
import "../../ui.css";
import "./checkout.css";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("checkout");
  return { title: t("metaTitle"), robots: { index: false } };
}

const loadView = async (id: string): Promise<CheckoutPageView | null> => {
  if (!/^chk_[0-9a-f]{24}$/.test(id)) return null;
  try {
    return await (await pageCaller()).checkoutPage.view({ id });
  } catch (error) {
    if (toAppError(error).code === "not_found") return null;
    throw error;
  }
};

/** The sandbox's test-card form, or Stripe's Payment Element (the only card form in production). */
const paymentPanel = (view: CheckoutPageView): PaymentPanel => {
  const config = env();
  if (config.PAYMENT_PROCESSOR === "sandbox") return { processor: "sandbox" };
  if (!config.STRIPE_PUBLISHABLE_KEY)
    throw new Error(
      "Invalid configuration:\n  STRIPE_PUBLISHABLE_KEY: required when PAYMENT_PROCESSOR is stripe",
    );
  return {
    processor: "stripe",
    publishableKey: config.STRIPE_PUBLISHABLE_KEY,
    amountCents: view.totalsCents.total,
  };
};

async function PaidState({ view }: { view: CheckoutPageView }) {
  const t = await getTranslations("checkout");
  return (
    <>
      <section className="card state paid" aria-labelledby="state-heading">
        <h2 id="state-heading" tabIndex={-1}>
          {t("paid.heading")}
        </h2>
        <FocusState targetId="state-heading" />
        <p>
          {t.rich("paid.orderNumber", {
            number: view.orderNumber ?? "",
            strong: (chunks) => <strong data-testid="order-number">{chunks}</strong>,
          })}
        </p>
        <p>{t("paid.confirmation", { email: view.email })}</p>
      </section>
      <section className="card" aria-labelledby="bought-heading">
        <h2 id="bought-heading">{t("paid.whatYouBought")}</h2>
        <WhatWasBought summary={view.summary} headingLevel={3} />
      </section>
    </>
  );
}

async function ClosedState({ view }: { view: CheckoutPageView }) {
  const t = await getTranslations("checkout");
  const what =
    view.closedReason === "price_changed"
      ? t("closed.priceChanged")
      : view.closedReason === "item_unavailable"
        ? t("closed.itemUnavailable")
        : view.status === "cancelled"
          ? t("closed.cancelledText")
          : t("closed.expiredText");
  return (
    <>
      <section className="card state closed" aria-labelledby="state-heading">
        <h2 id="state-heading" tabIndex={-1}>
          {view.status === "cancelled" ? t("closed.cancelled") : t("closed.expired")}
        </h2>
        <FocusState targetId="state-heading" />
        <p data-testid="state-text">{what}</p>
        <p className="what-to-do">{t("closed.whatToDo")}</p>
      </section>
      <section className="card" aria-labelledby="bought-heading">
        <h2 id="bought-heading">{t("closed.wasInIt")}</h2>
        <WhatWasBought summary={view.summary} headingLevel={3} />
      </section>
    </>
  );
}

export default async function CheckoutPage({ params }: { params: Promise<{ id: string }> }) {
  const view = await loadView((await params).id);
  if (!view) notFound();
  const t = await getTranslations("checkout");
  const locale = (await getLocale()) as Locale;
  const isOpen = view.status === "awaiting_payment";
  const expiresAt = new Date(view.expiresAt);
  return (
    <main className="shell checkout">
      <h1>{t("title")}</h1>
      {view.status === "paid" ? <PaidState view={view} /> : null}
      {view.status === "cancelled" || view.status === "expired" ? (
        <ClosedState view={view} />
      ) : null}
      {isOpen ? (
        <>
          <p className="muted">
            {t("linkWorksUntil", {
              time: formatTime(expiresAt, locale, view.timeZone),
              left: formatTimeLeft(new Date(), expiresAt, locale) ?? "",
            })}
          </p>
          <OpenCheckout view={view} />
          <PayForm
            checkoutId={view.id}
            email={view.email}
            total={formatMoney(view.totalsCents.total, locale)}
            pendingPaymentId={view.pendingPaymentId}
            panel={paymentPanel(view)}
          />
          <ZoneNote timeZone={view.timeZone} />
        </>
      ) : null}
    </main>
  );
}
