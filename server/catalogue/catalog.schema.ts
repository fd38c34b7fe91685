/**
 * Request and response schemas of the catalogue operations. Imports only zod, so forms and the
 * OpenAPI builder can import it. Field names are the wire names of the reference.
 */
import { z } from "zod";
import { decimalPattern } from "../core/money";
import { ZMoney } from "../core/money-input";
import { sortOrders } from "./search/types";
import { wholeNumber, wholeNumberParam, ZIntCount, ZIntId, ZIntPage } from "../core/zod";

/** Optional fields accept null as if omitted (reference 1.2.1). */
const optional = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((value) => value ?? undefined);

/** A query-string array: repeated parameters, each a non-empty string. */
const repeated = (max: number, label: string) =>
  optional(
    z
      .array(z.string().trim().min(1, `each ${label} must not be empty`).max(max))
      .max(50, `at most 50 ${label} values`),
  ).transform((values) => values ?? []);

const price = z
  .union([z.number(), z.string()])
  .transform((value) => String(value))
  .refine(
    (value) => decimalPattern.test(value),
    "must be an amount of at least 0 with at most two decimals",
  )
  .meta({ description: "Amount in CAD, at least 0, at most two decimals", example: "49.99" });

/** page and per_page as search takes them (1 to 2000, 1 to 48, default 24); lists reuse them. */
export const pageFields = {
  page: optional(wholeNumber(1, 2000))
    .transform((value) => value ?? 1)
    .meta({ example: 1 }),
  per_page: optional(wholeNumber(1, 48))
    .transform((value) => value ?? 24)
    .meta({ example: 24 }),
};

/** A search's price range (GET /products, a search watch's filters): max_price is at least min_price. */
export const checkPriceRange = (
  input: { min_price?: string; max_price?: string },
  ctx: z.RefinementCtx,
) => {
  if (
    input.min_price !== undefined &&
    input.max_price !== undefined &&
    Number(input.max_price) < Number(input.min_price)
  )
    ctx.addIssue({ code: "custom", path: ["max_price"], message: "must be at least min_price" });
};

export const ZSearchProductsRequest = z
  .object({
    q: optional(z.string().max(200, "must be at most 200 characters")).meta({
      description: "Free text, ranked by its words",
      example: "wool coat",
    }),
    category: optional(z.string().max(300, "must be at most 300 characters")).meta({
      description: "A category path from GET /categories; includes everything below it",
      example: "Women > Outerwear",
    }),
    size: repeated(40, "size").meta({
      description: "Repeatable; an item matches any given size (MD matches M)",
      example: ["M"],
    }),
    color: repeated(40, "color").meta({
      description: "Repeatable; any of the colours",
      example: ["Charcoal"],
    }),
    brand: repeated(100, "brand").meta({
      description: "Repeatable; exactly as in facets.brand",
      example: ["Atelier Nord"],
    }),
    store: optional(z.string().max(63, "must be at most 63 characters")).meta({
      description: "Only this store's items, by slug",
      example: "maison-lumiere",
    }),
    min_price: optional(price),
    max_price: optional(price),
    sort: optional(z.enum(sortOrders, { error: `must be one of ${sortOrders.join(", ")}` }))
      .transform((value) => value ?? "relevance")
      .meta({
        description:
          "relevance (by the words in q; newest without q), newest, price_asc, price_desc, or price_drop: the items whose price dropped in the last 7 days first, largest drop first ((highest price in the 7 days - price now) / that highest price), then every other item newest first",
      }),
    on_sale: optional(
      z.union([z.boolean(), z.enum(["true", "false"])], { error: "must be true or false" }),
    )
      .transform((value) => value === true || value === "true")
      .meta({
        description:
          "true: only items whose latest price change lowered the price and was made in the last 30 days (previous_price above price)",
        example: true,
      }),
    ...pageFields,
  })
  .strict()
  .superRefine(checkPriceRange);
export type TSearchProductsRequest = z.input<typeof ZSearchProductsRequest>;

export const ZStoreSummary = z
  .object({
    slug: z.string().meta({ example: "maison-lumiere" }),
    name: z.string().meta({ example: "Maison Lumière" }),
    url: z.url().meta({ example: "https://maison-lumiere.example.ca" }),
    agent_checkout: z.enum(["link", "direct"]),
  })
  .meta({ id: "StoreSummary" });

const conditions = ["new_with_tags", "new_without_tags", "excellent", "good", "fair"] as const;

const ZProductSummary = z
  .object({
    id: ZIntId(48213),
    title: z.string().meta({ example: "Double-breasted wool coat" }),
    brand: z.string().nullable().meta({ example: "Atelier Nord" }),
    category: z.string().nullable().meta({
      description: "Category path, levels joined with ' > '",
      example: "Women > Outerwear > Coats",
    }),
    price: ZMoney,
    previous_price: ZMoney.nullable().meta({
      description:
        "The price before the item's latest price change (GET /products/{id}/price-history has the rest); null when the price never changed",
    }),
    sizes: z
      .array(z.string())
      .meta({ description: "As the store listed them", example: ["S", "M", "L"] }),
    condition: z.enum(conditions).nullable(),
    available: z.boolean(),
    cover_image: z.url().nullable().meta({
      description: "URL of the cover image",
      example: "https://shopping.example.ca/images/48213/cover.jpg",
    }),
    url: z
      .url()
      .meta({ example: "https://maison-lumiere.example.ca/products/double-breasted-wool-coat" }),
    store: ZStoreSummary,
    price_watchers: ZIntCount(3).meta({
      description:
        "How many OTHER shoppers have a live price watch or price alert on this item, over all its variants; the signed-in person is never counted. State it as returned",
    }),
    you_are_watching: z.boolean().meta({
      description:
        "The token's person has a live price watch or price alert on this item; always false for a client-credentials token",
    }),
  })
  .meta({ id: "ProductSummary" });

const ZFacetValue = z
  .object({ value: z.string().meta({ example: "Atelier Nord" }), count: ZIntCount(128) })
  .meta({ id: "FacetValue" });

const ZFacets = z
  .object({
    brand: z.array(ZFacetValue),
    size: z.array(ZFacetValue),
    color: z.array(ZFacetValue),
    category: z.array(ZFacetValue),
    store: z.array(ZFacetValue),
  })
  .meta({
    id: "Facets",
    description:
      "Each facet is counted over the items matching every filter except its own (with brand=A the brand facet still lists B and C with the counts adding them would give). Most common first, at most 100 values.",
  });

export const ZPagination = z
  .object({
    page: ZIntPage(1),
    per_page: ZIntPage(24, 48),
    total: ZIntCount(1342),
    last_page: ZIntCount(56),
  })
  .meta({ id: "Pagination", example: { page: 1, per_page: 24, total: 1342, last_page: 56 } });

export const ZSearchProductsResponse = z.object({
  data: z.array(ZProductSummary),
  pagination: ZPagination,
  facets: ZFacets,
});

export const ZGetProductRequest = z.object({
  id: wholeNumberParam(1, 2147483647, { example: 48213 }),
});

export const ZProductDetail = ZProductSummary.extend({
  description: z.string().meta({
    example:
      "Mid-weight merino wool, fully lined, two welt pockets. Colour: Charcoal. Sizes: S, M, L.",
  }),
  created_at: z.iso.datetime(),
  images: z.array(
    z.object({
      url: z.url().meta({ example: "https://shopping.example.ca/images/48213/cover.jpg" }),
      is_cover: z.boolean(),
    }),
  ),
  variants: z.array(
    z.object({
      id: ZIntId(90412),
      size: z.string().nullable().meta({ example: "M" }),
      color: z.string().nullable().meta({ example: "Charcoal" }),
      available: z.boolean(),
    }),
  ),
}).meta({ id: "ProductDetail" });

export const ZGetStoreRequest = z.object({
  store_slug: z
    .string()
    .min(1)
    .max(63, "must be at most 63 characters")
    .meta({ example: "maison-lumiere" }),
});

export const ZStoreDetail = ZStoreSummary.extend({
  province: z.string().meta({ example: "QC" }),
  open_for_orders: z
    .boolean()
    .meta({ description: "Open, able to take payment and able to ship: its items are listed" }),
  offers_price_alerts: z.boolean(),
  free_shipping: z.object({ threshold: ZMoney }).nullable().meta({
    description:
      "Spend at least threshold (items, before tax) in this store and shipping is free; null when there is no offer",
  }),
  shipping_services: z.array(
    z.object({
      key: z.string().meta({ example: "standard" }),
      label: z.string().meta({ example: "Canada Post Expedited" }),
      min_days: ZIntCount(2, 60),
      max_days: ZIntCount(5, 60),
    }),
  ),
}).meta({ id: "StoreDetail" });

export type TCategoryNode = {
  path: string;
  name: string;
  item_count: number;
  children: TCategoryNode[];
};
const ZCategoryNode: z.ZodType<TCategoryNode> = z
  .object({
    path: z.string(),
    name: z.string(),
    item_count: ZIntCount(812).meta({ description: "Listed items in this category and below" }),
    get children() {
      return z.array(ZCategoryNode);
    },
  })
  // Whole: a recursive schema's example cannot be composed from its fields.
  .meta({
    id: "CategoryNode",
    example: {
      path: "Women > Outerwear",
      name: "Outerwear",
      item_count: 812,
      children: [
        { path: "Women > Outerwear > Coats", name: "Coats", item_count: 301, children: [] },
      ],
    },
  });

export const ZListCategoriesResponse = z.object({ data: z.array(ZCategoryNode) });
