/** The queries of `shipping_addresses`: a person's one saved address. Prisma. */
import type { Db, Tx } from "../../platform/db";

type Client = Db | Tx;

const addressSelect = {
  name: true,
  line1: true,
  line2: true,
  city: true,
  province: true,
  postalCode: true,
  country: true,
  phone: true,
} as const;

export type AddressRow = {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  province: string;
  postalCode: string;
  country: string;
  phone: string | null;
};

/** The person's saved address; null when none is saved. */
export const findShippingAddress = (db: Client, personId: string) =>
  db.shippingAddress.findUnique({ where: { personId }, select: addressSelect });

/** Saves the person's address, replacing any saved one. */
export const upsertShippingAddress = (db: Client, personId: string, address: AddressRow) =>
  db.shippingAddress.upsert({
    where: { personId },
    create: { personId, ...address },
    update: address,
    select: addressSelect,
  });

/** Removes the person's saved address (nothing when none is saved). */
export const deleteShippingAddress = (db: Client, personId: string) =>
  db.shippingAddress.deleteMany({ where: { personId } });
