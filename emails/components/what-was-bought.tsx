/**
 * What was bought, as every shopper email shows it (server/core/order-summary.ts): per store its
 * items with picture, size as listed and condition, the shipping option with its delivery days, tax
 * lines and the store's total; then the ship-to address and the overall total. A discount line
 * appears only when there is a discount.
 */
import { Column } from "@react-email/column";
import { Img } from "@react-email/img";
import { Row } from "@react-email/row";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { OrderSummary, SummaryItem } from "../../server/core/order-summary";
import { isConditionKey, isTaxName } from "../../server/core/messages";
import type { EmailIntl } from "./i18n";

const muted = { color: "#6b655f", fontSize: 13, margin: 0 };
const line = { margin: "2px 0", fontSize: 14 };

export const MoneyLine = ({
  label,
  amount,
  strong,
}: {
  label: string;
  amount: string;
  strong?: boolean;
}) => (
  <Row>
    <Column style={{ ...line, fontWeight: strong ? 700 : 400 }}>{label}</Column>
    <Column align="right" style={{ ...line, fontWeight: strong ? 700 : 400, whiteSpace: "nowrap" }}>
      {amount}
    </Column>
  </Row>
);

const itemDetails = (item: SummaryItem, intl: EmailIntl) =>
  [
    item.size ? intl.t("common.summary.size", { size: item.size }) : null,
    isConditionKey(item.condition) ? intl.t(`common.summary.condition.${item.condition}`) : null,
  ]
    .filter(Boolean)
    .join(" · ");

const ItemRow = ({ item, intl }: { item: SummaryItem; intl: EmailIntl }) => (
  <Row style={{ marginBottom: 8 }}>
    <Column style={{ width: 72, verticalAlign: "top" }}>
      {item.imageUrl ? (
        <Img
          src={item.imageUrl}
          width="64"
          height="80"
          alt={intl.t("common.summary.picture", { title: item.title })}
          style={{ borderRadius: 4, objectFit: "cover" }}
        />
      ) : null}
    </Column>
    <Column style={{ verticalAlign: "top" }}>
      <Text style={{ ...line, fontWeight: 600 }}>
        {item.quantity > 1
          ? intl.t("common.summary.quantityTitle", { quantity: item.quantity, title: item.title })
          : item.title}
      </Text>
      <Text style={muted}>{itemDetails(item, intl)}</Text>
    </Column>
    <Column align="right" style={{ ...line, verticalAlign: "top", whiteSpace: "nowrap" }}>
      {intl.money(item.lineCents)}
    </Column>
  </Row>
);

const taxName = (name: string, intl: EmailIntl) =>
  isTaxName(name) ? intl.t(`common.summary.taxName.${name}`) : name;

export const WhatWasBought = ({ summary, intl }: { summary: OrderSummary; intl: EmailIntl }) => (
  <>
    {summary.stores.map((store, index) => (
      <Section
        key={index}
        style={{
          border: "1px solid #e6e1da",
          borderRadius: 8,
          padding: "12px 16px",
          marginBottom: 12,
        }}
      >
        <Text style={{ fontWeight: 700, margin: "0 0 2px" }}>{store.storeName}</Text>
        {store.orderNumber ? (
          <Text style={{ ...muted, marginBottom: 8 }}>
            {intl.t("common.summary.order", { number: store.orderNumber })}
          </Text>
        ) : null}
        {store.items.map((item, itemIndex) => (
          <ItemRow key={itemIndex} item={item} intl={intl} />
        ))}
        {store.totals.discountCents > 0 ? (
          <MoneyLine
            label={intl.t("common.summary.discount")}
            amount={intl.money(-store.totals.discountCents)}
          />
        ) : null}
        <MoneyLine
          label={intl.t("common.summary.shipping", {
            label: store.shipping.label,
            earliest: intl.day(store.shipping.earliest),
            latest: intl.day(store.shipping.latest),
          })}
          amount={intl.money(store.shipping.cents)}
        />
        {store.taxLines.map((tax) => (
          <MoneyLine
            key={tax.name}
            label={intl.t("common.summary.taxLine", {
              name: taxName(tax.name, intl),
              rate: tax.rate,
            })}
            amount={intl.money(tax.cents)}
          />
        ))}
        {summary.stores.length > 1 ? (
          <MoneyLine
            label={intl.t("common.summary.storeTotal")}
            amount={intl.money(store.totals.totalCents)}
            strong
          />
        ) : null}
      </Section>
    ))}
    <MoneyLine
      label={intl.t("common.summary.total")}
      amount={intl.money(summary.totals.totalCents)}
      strong
    />
    <Text style={{ ...muted, marginTop: 12 }}>{intl.t("common.summary.shipTo")}</Text>
    <Text style={{ ...line, marginTop: 0 }}>
      {summary.shipTo.map((addressLine, index) => (
        <span key={index}>
          {addressLine}
          <br />
        </span>
      ))}
    </Text>
  </>
);
