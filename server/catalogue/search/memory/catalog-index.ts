/**
 * The in-process columnar catalogue index: one slot per item version, typed arrays per attribute,
 * dictionary-encoded facet values (sizes and colours as ids of distinct lists), and a posting list
 * per lexeme with the score of the best weight class the item has it in. PostgreSQL stays the source
 * of truth; this is rebuilt from it at start and kept fresh row by row (catalog-sync.ts).
 *
 * Updates: every attribute but the search text is written in place (O(1)). A change of the search
 * text moves the item to a new slot at the end, so posting lists stay sorted by slot with appends
 * only; the old slot is marked dead and skipped. Dead slots are reclaimed by the next full rebuild.
 */
import { BrowseCounts } from "./browse-counts";
import { Dictionary } from "./dictionary";
import { ensureLength } from "./growable";
import { IdSlots } from "./id-slots";
import { Postings } from "./postings";
import { SortBuckets } from "./sort-buckets";
import { parseTsvectorText } from "./tsvector-text";
import { ValueSets } from "./value-sets";
import { RecentPrices } from "./recent-prices";

/** An item as read from PostgreSQL (catalog-loader.ts). */
export type ItemRow = {
  id: number;
  storeId: number;
  categoryId: number | null;
  brand: string | null;
  priceCents: number;
  isActive: boolean;
  sizeKeys: (string | null)[];
  colors: (string | null)[];
  createdMs: number;
  /** search_vector::text, or null when the item has none. */
  vector: string | null;
};
export type StoreRow = { id: number; slug: string; isListed: boolean };
export type CategoryRow = { id: number; path: string; depth: number };

/** A small, fast string hash (FNV-1a): tells whether an item's search text changed. */
const hashText = (text: string | null) => {
  let hash = 0x811c9dc5;
  if (text)
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
};

let versions = 0;
const nextVersion = () => ++versions;

export class CatalogIndex {
  /** Slots used (live and dead). */
  slotCount = 0;
  /** Items held (live slots), whatever their status. */
  itemCount = 0;
  itemId = new Int32Array(0);
  isLive = new Uint8Array(0);
  /** Live and status active (the store's flags are checked separately, per store). */
  isActive = new Uint8Array(0);
  store = new Int32Array(0);
  /** Category index, -1 for none. */
  category = new Int32Array(0);
  /** Brand id, -1 for none. */
  brand = new Int32Array(0);
  price = new Int32Array(0);
  created = new Float64Array(0);
  textHash = new Int32Array(0);
  /** Id of the slot's list of size keys / colours in `sizes` / `colors`. */
  sizeSet = new Int32Array(0);
  colorSet = new Int32Array(0);

  readonly brands = new Dictionary();
  readonly sizes = new ValueSets();
  readonly colors = new ValueSets();
  /** Category facet values: top-level paths and full paths. */
  readonly categoryValues = new Dictionary();
  readonly postings = new Postings();
  readonly buckets = new SortBuckets();
  readonly browse = new BrowseCounts();
  /** Items' recent price changes (price_drop, on_sale), by item id: a sparse map (recent-prices.ts). */
  readonly prices: RecentPrices;
  /** During a bulk build the browse counts are computed once at the end. */
  private isBuilding = false;
  private readonly slotOfItem = new IdSlots();

  // Stores and categories are small tables, kept as plain arrays by a dense index.
  storeListed = new Uint8Array(0);
  storeSlugs: string[] = [];
  private storeIndexById = new Map<number, number>();
  storeIndexBySlug = new Map<string, number>();
  storeSlugRanks: Int32Array | undefined;
  categoryPaths: string[] = [];
  /** Category facet values of each category: the top level (-1 at depth 0) and the full path. */
  categoryTop = new Int32Array(0);
  categorySelf = new Int32Array(0);
  private categoryIndexById = new Map<number, number>();

  /**
   * Changed by every change; response caches key on it. Drawn from one counter for every index of
   * the thread, so a rebuilt index never repeats a version the one it replaces had.
   */
  version = nextVersion();

  /** `horizonMs`: the recent prices hold the items whose latest price change is after it (all without). */
  constructor(horizonMs = -Infinity) {
    this.prices = new RecentPrices(horizonMs);
  }

  /** The live slot of an item, -1 when none. */
  slotOf(id: number) {
    return this.slotOfItem.get(id);
  }

  private ensureSlots(count: number) {
    if (this.itemId.length >= count) return;
    this.itemId = ensureLength(this.itemId, count);
    const capacity = this.itemId.length;
    this.isLive = ensureLength(this.isLive, capacity);
    this.isActive = ensureLength(this.isActive, capacity);
    this.store = ensureLength(this.store, capacity);
    this.category = ensureLength(this.category, capacity);
    this.brand = ensureLength(this.brand, capacity);
    this.price = ensureLength(this.price, capacity);
    this.created = ensureLength(this.created, capacity);
    this.textHash = ensureLength(this.textHash, capacity);
    this.sizeSet = ensureLength(this.sizeSet, capacity);
    this.colorSet = ensureLength(this.colorSet, capacity);
    this.buckets.ensureSlots(capacity);
    this.postings.ensureSlots(capacity);
  }

  /** Stores the store's slug and whether its items are listed (open, can take payment, can ship). */
  upsertStore(row: StoreRow) {
    let index = this.storeIndexById.get(row.id);
    if (index === undefined) {
      index = this.storeSlugs.length;
      this.storeIndexById.set(row.id, index);
      this.storeSlugs.push(row.slug);
      this.storeListed = ensureLength(this.storeListed, index + 1);
    }
    const previous = this.storeSlugs[index];
    if (previous !== row.slug || this.storeIndexBySlug.get(row.slug) !== index) {
      if (this.storeIndexBySlug.get(previous) === index) this.storeIndexBySlug.delete(previous);
      this.storeSlugs[index] = row.slug;
      this.storeIndexBySlug.set(row.slug, index);
      this.storeSlugRanks = undefined;
    }
    const wasListed = this.storeListed[index];
    this.storeListed[index] = row.isListed ? 1 : 0;
    // Rare (a store opens or closes): recount rather than track which slots belong to the store.
    if (wasListed !== this.storeListed[index] && !this.isBuilding) this.browse.recompute(this);
    this.version = nextVersion();
  }

  hasStore(id: number) {
    return this.storeIndexById.has(id);
  }

  hasCategory(id: number) {
    return this.categoryIndexById.has(id);
  }

  /** Replaces the category table (small; reloaded whole when it changes). */
  setCategories(rows: CategoryRow[]) {
    for (const row of rows) {
      let index = this.categoryIndexById.get(row.id);
      if (index === undefined) {
        index = this.categoryPaths.length;
        this.categoryIndexById.set(row.id, index);
        this.categoryPaths.push(row.path);
        this.categoryTop = ensureLength(this.categoryTop, index + 1);
        this.categorySelf = ensureLength(this.categorySelf, index + 1);
      }
      this.categoryPaths[index] = row.path;
      // As pg-search: the top level is split_part(path, ' > ', 1), counted with the path unless depth is 0.
      this.categoryTop[index] =
        row.depth === 0 ? -1 : this.categoryValues.idOf(row.path.split(" > ")[0]);
      this.categorySelf[index] = this.categoryValues.idOf(row.path);
    }
    this.version = nextVersion();
  }

  /** Adds or updates an item from its row. Its store and category must be known (upsert them first). */
  upsertItem(row: ItemRow) {
    const existing = this.slotOfItem.get(row.id);
    const textHash = hashText(row.vector);
    if (existing >= 0 && this.textHash[existing] === textHash) {
      this.contribute(existing, -1);
      this.writeScalars(existing, row);
      this.contribute(existing, 1);
      this.version = nextVersion();
      return;
    }
    if (existing >= 0) {
      this.contribute(existing, -1);
      this.killSlot(existing);
    }
    const slot = this.slotCount++;
    this.ensureSlots(this.slotCount);
    this.itemId[slot] = row.id;
    this.isLive[slot] = 1;
    this.textHash[slot] = textHash;
    this.itemCount++;
    this.slotOfItem.set(row.id, slot);
    this.writeScalars(slot, row);
    if (row.vector)
      parseTsvectorText(row.vector, (lexeme, score) => this.postings.add(lexeme, slot, score));
    this.contribute(slot, 1);
    this.version = nextVersion();
  }

  private writeScalars(slot: number, row: ItemRow) {
    const store = this.storeIndexById.get(row.storeId);
    if (store === undefined)
      throw new Error(`Store ${row.storeId} of item ${row.id} is not loaded`);
    const category = row.categoryId === null ? -1 : this.categoryIndexById.get(row.categoryId);
    if (category === undefined)
      throw new Error(`Category ${row.categoryId} of item ${row.id} is not loaded`);
    this.isActive[slot] = row.isActive ? 1 : 0;
    this.store[slot] = store;
    this.category[slot] = category;
    this.brand[slot] = row.brand === null ? -1 : this.brands.idOf(row.brand);
    this.price[slot] = row.priceCents;
    this.sizeSet[slot] = this.sizes.idOf(row.sizeKeys);
    this.colorSet[slot] = this.colors.idOf(row.colors);
    this.created[slot] = row.createdMs;
    this.buckets.place(slot, row.priceCents, row.createdMs);
  }

  private contribute(slot: number, sign: 1 | -1) {
    if (!this.isBuilding) this.browse.contribute(this, slot, sign);
  }

  private killSlot(slot: number) {
    this.isLive[slot] = 0;
    this.isActive[slot] = 0;
    this.itemCount--;
  }

  /** What the index holds of one item (tests compare it with SQL); undefined when it holds none. */
  describeItem(
    id: number,
  ): { priceCents: number; isActive: boolean; storeListed: boolean } | undefined {
    const slot = this.slotOfItem.get(id);
    if (slot < 0) return undefined;
    return {
      priceCents: this.price[slot],
      isActive: this.isActive[slot] === 1,
      storeListed: this.storeListed[this.store[slot]] === 1,
    };
  }

  /** Forgets a deleted item. */
  removeItem(id: number) {
    const slot = this.slotOfItem.get(id);
    if (slot < 0) return;
    this.contribute(slot, -1);
    this.killSlot(slot);
    this.slotOfItem.set(id, -1);
    this.prices.delete(id);
    this.version = nextVersion();
  }

  /** Share of slots that are dead; a rebuild reclaims them. */
  deadShare() {
    return this.slotCount ? 1 - this.itemCount / this.slotCount : 0;
  }

  /** Before a bulk load: sizes the arrays for the catalogue at once (growing them leaves freed memory behind). */
  reserve(options: { items: number; maxItemId: number; postings: number }) {
    this.ensureSlots(options.items + 1024);
    this.slotOfItem.set(options.maxItemId + 1024, -1);
    this.postings.beginBulk(options.postings + 1024);
    this.isBuilding = true;
  }

  /** After the bulk load: sort buckets from the loaded values and give posting lists their exact size. */
  finishBuild() {
    this.isBuilding = false;
    this.postings.compact(this.slotCount, this.itemId.length);
    this.rebalanceBuckets();
  }

  /** Recomputes the sort buckets from the current prices and times (and the browse counts that use them). */
  rebalanceBuckets() {
    this.buckets.rebalance(this.price, this.created, this.slotCount);
    this.browse.recompute(this);
    this.version = nextVersion();
  }

  /** Code-point ranks of the store slugs (tie order of the store facet). */
  storeRanks(): Int32Array {
    if (this.storeSlugRanks) return this.storeSlugRanks;
    const dictionary = new Dictionary();
    for (const slug of this.storeSlugs) dictionary.idOf(slug);
    const byValue = dictionary.ranks();
    return (this.storeSlugRanks = Int32Array.from(
      this.storeSlugs,
      (slug) => byValue[dictionary.find(slug)],
    ));
  }

  /** Rough bytes held by the typed arrays (for logs and the benchmark report). */
  bytes() {
    const arrays = [
      this.itemId,
      this.isLive,
      this.isActive,
      this.store,
      this.category,
      this.brand,
      this.price,
      this.created,
      this.textHash,
      this.sizeSet,
      this.colorSet,
    ];
    return (
      arrays.reduce((sum, array) => sum + array.byteLength, 0) +
      this.buckets.bytes() +
      this.postings.bytes()
    );
  }
}
