/**
 * The layout of a slot's scan row (CatalogIndex.rows): everything a search reads of an item, eight
 * 32-bit words in a row. At a million items a query's candidates are scattered over the index, and
 * one array per attribute cost a cache miss per attribute per candidate (eight); a row is one miss
 * (docs/performance.md, "Issue 28: the tail at a million items"; docs/adr/0115-search-tail.md).
 *
 * Users copy the offsets into module-level constants (`const { ... } = scanRow`) rather than
 * importing them one by one: an imported binding compiled to CommonJS is a getter call on every
 * read, which made the scan loops six times slower.
 */
export const scanRow = {
  stride: 8,
  /** log2(stride): the row of slot s starts at s << shift. */
  shift: 3,
  price: 0,
  /** Store index. */
  store: 1,
  /** Brand id, -1 for none. */
  brand: 2,
  /** Category index, -1 for none. */
  category: 3,
  /** Id of the slot's list of size keys / colours (ValueSets). */
  sizeSet: 4,
  colorSet: 5,
  /** Sort buckets (sort-buckets.ts), copied here: the price bucket in the low 16 bits, creation's above. */
  buckets: 6,
  /** 1 when live and active (a copy of CatalogIndex.isActive). */
  active: 7,
} as const;

/** Shift of the sort bucket within the row's bucket word for the order being paged. */
export const bucketShiftOf = (isPrice: boolean) => (isPrice ? 0 : 16);
