/**
 * Sent when an assistant's purchase is held: who bought it, what was bought (each item, the ship-to
 * address and the breakdown), when the card is charged and until when it can be cancelled (with the
 * time left), and the cancel link. In the person's language and zone (emails/components/i18n.ts).
 */
import { Button } from "@react-email/button";
import { Text } from "@react-email/text";
import type { OrderSummary } from "../server/core/order-summary";
import { emailIntl, type Localised } from "./components/i18n";
import { EmailLayout, OrOpen, buttonStyle } from "./components/layout";
import { sampleSummary } from "./components/sample-summary";
import { WhatWasBought } from "./components/what-was-bought";

export type PurchaseCopyProps = Localised & {
  orderNumber: string;
  /** The assistant's name, as it registered. */
  assistant: string;
  summary: OrderSummary;
  /** When the email was written (ISO): the time left is counted from it, or from sending if later. */
  writtenAt: string;
  /** When the card is charged (ISO). */
  chargesAt: string;
  /** Until when the purchase can be cancelled (ISO). */
  cancelUntil: string;
  cancelUrl: string;
};

/** A copy written before issue 27 (English, amounts and times already formatted): still sent as it was. */
type LegacyProps = {
  orderNumber: string;
  assistant: string;
  grandTotal: string;
  chargesAt: string;
  cancelUntil: string;
  cancelUrl: string;
};

const isCurrent = (props: PurchaseCopyProps | LegacyProps): props is PurchaseCopyProps =>
  "summary" in props && Boolean(props.summary);

/**
 * The time left until `until` as the reader sees it: counted from the later of the writing and the
 * rendering (the outbox renders when it sends, so a delayed email does not promise time that is gone).
 */
const leftUntil = (props: PurchaseCopyProps, until: string) =>
  emailIntl(props).timeLeft(new Date(Math.max(Date.now(), Date.parse(props.writtenAt))), until);

export const subject = (props: PurchaseCopyProps | LegacyProps) => {
  if (!isCurrent(props))
    return `${props.assistant} bought order ${props.orderNumber} for you: cancel until ${props.cancelUntil}`;
  const intl = emailIntl(props);
  return intl.t("purchases.copyEmail.subject", {
    assistant: props.assistant,
    number: props.orderNumber,
    time: intl.time(props.cancelUntil),
    zone: intl.zone,
  });
};

/** Sample props for tests and the screenshots: one item from one store, to Toronto. */
export const previewProps: PurchaseCopyProps = {
  locale: "en-CA",
  timeZone: "America/Toronto",
  orderNumber: "SO-7K3M9QX2",
  assistant: "Errand Assistant",
  writtenAt: "2026-11-27T16:05:00.000Z",
  chargesAt: "2026-11-28T16:05:00.000Z",
  cancelUntil: "2026-11-28T16:05:00.000Z",
  cancelUrl: "http://localhost:3000/purchases/pur_example/cancel?token=example",
  summary: sampleSummary,
};

function LegacyCopy(props: LegacyProps) {
  return (
    <EmailLayout
      preview={`Order ${props.orderNumber}: $${props.grandTotal} CAD on hold, charged ${props.chargesAt} unless you cancel`}
      heading="A purchase was made for you"
    >
      <Text>
        {props.assistant} bought order <strong>{props.orderNumber}</strong> for you. Your saved card
        has a hold of <strong>${props.grandTotal} CAD</strong>; it is charged on {props.chargesAt}{" "}
        unless you cancel.
      </Text>
      <Text>
        You can cancel until {props.cancelUntil}: the hold is released and nothing is charged.
      </Text>
      <Button href={props.cancelUrl} style={buttonStyle}>
        Review or cancel
      </Button>
      <Text style={{ fontSize: 13, color: "#6b655f" }}>Or open: {props.cancelUrl}</Text>
    </EmailLayout>
  );
}

export default function PurchaseCopy(props: PurchaseCopyProps | LegacyProps) {
  if (!isCurrent(props)) return <LegacyCopy {...props} />;
  const intl = emailIntl(props);
  const { t } = intl;
  const total = intl.money(props.summary.totals.totalCents);
  const left = leftUntil(props, props.cancelUntil);
  const cancelUntil = intl.time(props.cancelUntil);
  return (
    <EmailLayout
      preview={t("purchases.copyEmail.preview", {
        number: props.orderNumber,
        total,
        time: intl.time(props.chargesAt),
      })}
      heading={t("purchases.copyEmail.heading", { assistant: props.assistant })}
      intl={intl}
      showsTimes
    >
      <Text>
        {t("purchases.copyEmail.intro", {
          assistant: props.assistant,
          number: props.orderNumber,
          total,
        })}
      </Text>
      <Text>
        <strong>{t("purchases.copyEmail.charges", { time: intl.time(props.chargesAt) })}</strong>
      </Text>
      <Text>
        {left
          ? t("purchases.copyEmail.cancelUntilLeft", { time: cancelUntil, left })
          : t("purchases.copyEmail.cancelUntil", { time: cancelUntil })}
      </Text>
      <Button href={props.cancelUrl} style={buttonStyle}>
        {t("purchases.copyEmail.button")}
      </Button>
      <OrOpen url={props.cancelUrl} intl={intl} />
      <WhatWasBought summary={props.summary} intl={intl} />
    </EmailLayout>
  );
}
