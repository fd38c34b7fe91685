/** Named selects of the account operations. */
import type { Province } from "../core/provinces";

export const meSelect = { name: true, email: true, emailVerifiedAt: true, sizes: true } as const;

export const addressSelect = {
  name: true,
  line1: true,
  line2: true,
  city: true,
  province: true,
  postalCode: true,
  country: true,
  phone: true,
} as const;

/** Database row → the wire shape of a saved address. */
export const toShippingAddress = (row: {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  province: string;
  postalCode: string;
  country: string;
  phone: string | null;
}) => ({
  name: row.name,
  line1: row.line1,
  line2: row.line2,
  city: row.city,
  province: row.province as Province,
  postal_code: row.postalCode,
  country: "CA" as const,
  phone: row.phone,
});
