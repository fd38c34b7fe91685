/**
 * A store's live shipping options for one parcel: each service costs base + per_item for every item
 * after the first, plus a remote surcharge to the territories; the cheapest is marked (ties by
 * service key, so the answer is stable). The store's free-shipping offer makes its cheapest service
 * free once the store's item subtotal (after discount, before tax) reaches the threshold.
 */
import { addBusinessDays } from "./business-days";
import type { Cents } from "./money";
import { localDate, provinces, type Province } from "./provinces";

export type ShippingRate = {
  key: string;
  label: string;
  baseCents: Cents;
  perItemCents: Cents;
  remoteSurchargeCents: Cents;
  minDays: number;
  maxDays: number;
};

type DeliveryEstimate = {
  minDays: number;
  maxDays: number;
  earliest: string;
  latest: string;
};

export type ShippingOption = {
  key: string;
  label: string;
  amountCents: Cents;
  regularCents: Cents;
  isFree: boolean;
  isCheapest: boolean;
  delivery: DeliveryEstimate;
};

export type FreeShippingOffer = {
  thresholdCents: Cents;
  qualifies: boolean;
  remainingCents: Cents;
};

/** Extra business days to the territories, where carriers connect through the south by air. */
const remoteExtraDays = { min: 2, max: 4 };

/** Threshold on the store's item subtotal: qualifies, or how much more would qualify. */
export const freeShippingOffer = (
  thresholdCents: Cents | null,
  itemSubtotalCents: Cents,
): FreeShippingOffer | null =>
  thresholdCents === null
    ? null
    : {
        thresholdCents,
        qualifies: itemSubtotalCents >= thresholdCents,
        remainingCents: Math.max(0, thresholdCents - itemSubtotalCents),
      };

/** Price of one service for a parcel of `itemCount` items to `province`, before any free-shipping offer. */
const regularPrice = (rate: ShippingRate, itemCount: number, province: Province): Cents =>
  rate.baseCents +
  rate.perItemCents * Math.max(0, itemCount - 1) +
  (provinces[province].isRemote ? rate.remoteSurchargeCents : 0);

/** The options a parcel can ship with, cheapest first, exactly one marked cheapest. */
export const shippingOptions = (options: {
  rates: readonly ShippingRate[];
  itemCount: number;
  province: Province;
  offer: FreeShippingOffer | null;
  now: Date;
}): ShippingOption[] => {
  if (options.rates.length === 0) return [];
  const today = localDate(options.now, options.province);
  const extra = provinces[options.province].isRemote ? remoteExtraDays : { min: 0, max: 0 };
  const priced = options.rates
    .map((rate) => ({
      rate,
      regularCents: regularPrice(rate, options.itemCount, options.province),
    }))
    .sort((a, b) => a.regularCents - b.regularCents || (a.rate.key < b.rate.key ? -1 : 1));
  return priced.map(({ rate, regularCents }, index) => {
    const isFree = index === 0 && Boolean(options.offer?.qualifies);
    const minDays = rate.minDays + extra.min;
    const maxDays = rate.maxDays + extra.max;
    return {
      key: rate.key,
      label: rate.label,
      amountCents: isFree ? 0 : regularCents,
      regularCents,
      isFree,
      isCheapest: index === 0,
      delivery: {
        minDays,
        maxDays,
        earliest: addBusinessDays(today, minDays),
        latest: addBusinessDays(today, maxDays),
      },
    };
  });
};
