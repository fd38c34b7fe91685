/**
 * The registry of email templates and the one render function. Each template module exports a
 * default component and `subject(props)`. Adding an email: a file in emails/ and a line here.
 */
import { render, toPlainText } from "@react-email/render";
import { createElement, type ComponentType } from "react";
import OrderConfirmation, { subject as orderConfirmationSubject } from "./order-confirmation";
import OrderShipped, { subject as orderShippedSubject } from "./order-shipped";
import VerifyEmail, { subject as verifyEmailSubject } from "./verify-email";
import ResetPassword, { subject as resetPasswordSubject } from "./reset-password";
import AccountExists, { subject as accountExistsSubject } from "./account-exists";
import PurchaseCopy, { subject as purchaseCopySubject } from "./purchase-copy";
import PurchaseClosed, { subject as purchaseClosedSubject } from "./purchase-closed";
import PaymentFailed, { subject as paymentFailedSubject } from "./payment-failed";
import PriceAlert, { subject as priceAlertSubject } from "./price-alert";
import EndpointDeprecated, { subject as endpointDeprecatedSubject } from "./endpoint-deprecated";
import WebhookEndpointDisabled, {
  subject as webhookEndpointDisabledSubject,
} from "./webhook-endpoint-disabled";
import PriceWatchSet, { subject as priceWatchSetSubject } from "./price-watch-set";
import PriceWatchBought, { subject as priceWatchBoughtSubject } from "./price-watch-bought";
import PriceWatchNeedsYou, { subject as priceWatchNeedsYouSubject } from "./price-watch-needs-you";
import PriceWatchEnded, { subject as priceWatchEndedSubject } from "./price-watch-ended";
import RefundIssued, { subject as refundIssuedSubject } from "./refund-issued";

type Template<P> = { component: ComponentType<P>; subject: (props: P) => string };

const template = <P>(
  component: ComponentType<P>,
  subject: (props: P) => string,
): Template<unknown> => ({ component, subject }) as Template<unknown>;

const templates = {
  "verify-email": template(VerifyEmail, verifyEmailSubject),
  "reset-password": template(ResetPassword, resetPasswordSubject),
  "account-exists": template(AccountExists, accountExistsSubject),
  "order-confirmation": template(OrderConfirmation, orderConfirmationSubject),
  "order-shipped": template(OrderShipped, orderShippedSubject),
  "purchase-copy": template(PurchaseCopy, purchaseCopySubject),
  "purchase-closed": template(PurchaseClosed, purchaseClosedSubject),
  "payment-failed": template(PaymentFailed, paymentFailedSubject),
  "price-alert": template(PriceAlert, priceAlertSubject),
  "endpoint-deprecated": template(EndpointDeprecated, endpointDeprecatedSubject),
  "webhook-endpoint-disabled": template(WebhookEndpointDisabled, webhookEndpointDisabledSubject),
  "price-watch-set": template(PriceWatchSet, priceWatchSetSubject),
  "price-watch-bought": template(PriceWatchBought, priceWatchBoughtSubject),
  "price-watch-needs-you": template(PriceWatchNeedsYou, priceWatchNeedsYouSubject),
  "price-watch-ended": template(PriceWatchEnded, priceWatchEndedSubject),
  "refund-issued": template(RefundIssued, refundIssuedSubject),
} satisfies Record<string, Template<unknown>>;

export type TemplateName = keyof typeof templates;

export const isTemplateName = (name: string): name is TemplateName => name in templates;

/** Renders a template to subject, HTML and plain text. */
export const renderEmail = async (name: TemplateName, props: unknown) => {
  const { component, subject } = templates[name];
  const element = createElement(component as ComponentType<object>, props as object);
  // One React render: the plain text is converted from the HTML, as render's plainText option would
  // do after a second render of its own (about 6 ms of CPU an email saved).
  const html = await render(element);
  const text = toPlainText(html);
  return { subject: subject(props), html, text };
};
