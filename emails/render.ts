/**
 * The registry of email templates and the one render function. Each template module exports a
 * default component, `subject(props)` and `previewProps` (realistic sample props, rendered by the
 * email tests and `npm run screens`). Adding an email: a file in emails/ and a line here.
 * Shopper emails are written in the reader's language (their props carry `locale`); partner emails
 * stay English.
 */
import { render, toPlainText } from "@react-email/render";
import { createElement, type ComponentType } from "react";
import * as accountExists from "./account-exists";
import * as endpointDeprecated from "./endpoint-deprecated";
import * as orderConfirmation from "./order-confirmation";
import * as orderShipped from "./order-shipped";
import * as paymentFailed from "./payment-failed";
import * as priceAlert from "./price-alert";
import * as priceWatchBought from "./price-watch-bought";
import * as priceWatchEnded from "./price-watch-ended";
import * as priceWatchGroupEnded from "./price-watch-group-ended";
import * as priceWatchGroupSet from "./price-watch-group-set";
import * as priceWatchNeedsYou from "./price-watch-needs-you";
import * as priceWatchSet from "./price-watch-set";
import * as purchaseClosed from "./purchase-closed";
import * as purchaseCopy from "./purchase-copy";
import * as refundFailed from "./refund-failed";
import * as refundIssued from "./refund-issued";
import * as searchWatchMatches from "./search-watch-matches";
import * as resetPassword from "./reset-password";
import * as verifyEmail from "./verify-email";
import * as webhookEndpointDisabled from "./webhook-endpoint-disabled";

type TemplateModule<P> = {
  default: ComponentType<P>;
  subject: (props: P) => string;
  previewProps: P;
};

type Template = TemplateModule<unknown> & { audience: "shopper" | "partner" };

const shopper = <P>(module: TemplateModule<P>): Template =>
  ({ ...module, audience: "shopper" }) as Template;
const partner = <P>(module: TemplateModule<P>): Template =>
  ({ ...module, audience: "partner" }) as Template;

const templates = {
  "verify-email": shopper(verifyEmail),
  "reset-password": shopper(resetPassword),
  "account-exists": shopper(accountExists),
  "order-confirmation": shopper(orderConfirmation),
  "order-shipped": shopper(orderShipped),
  "purchase-copy": shopper(purchaseCopy),
  "purchase-closed": shopper(purchaseClosed),
  "payment-failed": shopper(paymentFailed),
  "price-alert": shopper(priceAlert),
  "search-watch-matches": shopper(searchWatchMatches),
  "price-watch-set": shopper(priceWatchSet),
  "price-watch-bought": shopper(priceWatchBought),
  "price-watch-needs-you": shopper(priceWatchNeedsYou),
  "price-watch-ended": shopper(priceWatchEnded),
  "price-watch-group-set": shopper(priceWatchGroupSet),
  "price-watch-group-ended": shopper(priceWatchGroupEnded),
  "refund-issued": shopper(refundIssued),
  "refund-failed": shopper(refundFailed),
  "endpoint-deprecated": partner(endpointDeprecated),
  "webhook-endpoint-disabled": partner(webhookEndpointDisabled),
} satisfies Record<string, Template>;

export type TemplateName = keyof typeof templates;

export const isTemplateName = (name: string): name is TemplateName => name in templates;

/** Renders a template to subject, HTML and plain text. */
export const renderEmail = async (name: TemplateName, props: unknown) => {
  const { default: component, subject } = templates[name];
  const element = createElement(component as ComponentType<object>, props as object);
  // One React render: the plain text is converted from the HTML, as render's plainText option would
  // do after a second render of its own (about 6 ms of CPU an email saved).
  const html = await render(element);
  const text = toPlainText(html);
  return { subject: subject(props), html, text };
};

/** Every template with its sample props, in each language it is written in (tests, screenshots). */
export const emailPreviews = () =>
  Object.entries(templates).flatMap(([name, { audience, previewProps }]) =>
    (audience === "shopper" ? (["en-CA", "fr-CA"] as const) : (["en-CA"] as const)).map(
      (locale) => ({
        name: name as TemplateName,
        locale,
        props: audience === "shopper" ? { ...(previewProps as object), locale } : previewProps,
      }),
    ),
  );
