/** A store order's footnote: where to ask about an item (the store's site), or nothing when its site is unknown. */
import { Link } from "@react-email/link";
import { Text } from "@react-email/text";
import type { EmailIntl } from "./i18n";

export const StoreLink = (props: {
  intl: EmailIntl;
  storeName: string;
  /** "" when unknown: no line. */
  storeUrl: string;
  /** Lines one under the other (several stores). */
  compact?: boolean;
}) =>
  props.storeUrl ? (
    <Text style={{ fontSize: 13, color: "#6b655f", ...(props.compact ? { margin: "4px 0" } : {}) }}>
      {props.intl.t("orders.email.storeLink", { store: props.storeName })}{" "}
      <Link href={props.storeUrl} style={{ color: "#9c3d2a" }}>
        {props.storeUrl}
      </Link>
    </Text>
  ) : null;

/** The card a refund goes back to, as the refund emails name it. */
export const refundCard = (cardLast4: string | null, intl: EmailIntl) =>
  cardLast4
    ? intl.t("orders.refund.cardEnding", { last4: cardLast4 })
    : intl.t("orders.refund.cardPaidWith");
