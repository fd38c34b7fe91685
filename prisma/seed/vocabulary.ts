/** Word lists of the sandbox catalogue generator: a fashion marketplace of Canadian stores. */
import type { Province } from "../../server/core/provinces";

/** Category tree (three levels) with the size system of each branch and the noun its titles use. */
export type SizeSystem = "letter" | "shoe" | "waist" | "one";
export type Leaf = { path: string; noun: string; sizes: SizeSystem; priceFactor: number };

const leaves = (
  root: string,
  branches: Record<string, [string, string, SizeSystem, number][]>,
): Leaf[] =>
  Object.entries(branches).flatMap(([branch, items]) =>
    items.map(([leaf, noun, sizes, priceFactor]) => ({
      path: `${root} > ${branch} > ${leaf}`,
      noun,
      sizes,
      priceFactor,
    })),
  );

export const categoryLeaves: Leaf[] = [
  ...leaves("Women", {
    Tops: [
      ["Blouses", "Blouse", "letter", 1],
      ["T-Shirts", "Tee", "letter", 0.6],
      ["Sweaters", "Sweater", "letter", 1.3],
      ["Tank Tops", "Tank", "letter", 0.5],
    ],
    Dresses: [
      ["Midi Dresses", "Midi Dress", "letter", 1.6],
      ["Maxi Dresses", "Maxi Dress", "letter", 1.7],
      ["Mini Dresses", "Mini Dress", "letter", 1.3],
    ],
    Outerwear: [
      ["Jackets", "Jacket", "letter", 2.2],
      ["Coats", "Coat", "letter", 3],
      ["Parkas", "Parka", "letter", 3.5],
    ],
    Bottoms: [
      ["Jeans", "Jeans", "waist", 1.2],
      ["Skirts", "Skirt", "letter", 1],
      ["Trousers", "Trousers", "waist", 1.2],
    ],
    Shoes: [
      ["Boots", "Boots", "shoe", 2.2],
      ["Sneakers", "Sneakers", "shoe", 1.5],
      ["Heels", "Heels", "shoe", 1.8],
      ["Sandals", "Sandals", "shoe", 0.9],
    ],
  }),
  ...leaves("Men", {
    Tops: [
      ["Shirts", "Shirt", "letter", 1],
      ["T-Shirts", "Tee", "letter", 0.6],
      ["Sweaters", "Sweater", "letter", 1.3],
      ["Hoodies", "Hoodie", "letter", 1],
    ],
    Outerwear: [
      ["Jackets", "Jacket", "letter", 2.2],
      ["Coats", "Coat", "letter", 3],
      ["Vests", "Vest", "letter", 1.2],
    ],
    Bottoms: [
      ["Jeans", "Jeans", "waist", 1.2],
      ["Chinos", "Chinos", "waist", 1],
      ["Shorts", "Shorts", "waist", 0.6],
    ],
    Shoes: [
      ["Boots", "Boots", "shoe", 2.2],
      ["Sneakers", "Sneakers", "shoe", 1.5],
      ["Loafers", "Loafers", "shoe", 1.6],
    ],
    Suits: [
      ["Blazers", "Blazer", "letter", 2.5],
      ["Suit Sets", "Suit", "letter", 4],
    ],
  }),
  ...leaves("Accessories", {
    Bags: [
      ["Tote Bags", "Tote", "one", 2],
      ["Crossbody Bags", "Crossbody Bag", "one", 2.4],
      ["Backpacks", "Backpack", "one", 1.4],
    ],
    Jewellery: [
      ["Necklaces", "Necklace", "one", 1.2],
      ["Earrings", "Earrings", "one", 0.8],
      ["Rings", "Ring", "shoe", 1],
    ],
    Hats: [
      ["Toques", "Toque", "one", 0.5],
      ["Caps", "Cap", "one", 0.5],
    ],
    Scarves: [
      ["Wool Scarves", "Scarf", "one", 0.7],
      ["Silk Scarves", "Silk Scarf", "one", 1.1],
    ],
  }),
  ...leaves("Kids", {
    Clothing: [
      ["Snowsuits", "Snowsuit", "letter", 1.2],
      ["Tops", "Top", "letter", 0.4],
    ],
    Shoes: [["Boots", "Boots", "shoe", 0.8]],
  }),
];

/** Brands with a price tier (1 everyday to 5 luxury); the first ones are the most common. */
export const brands: [string, number][] = [
  ["Roots", 2],
  ["Aritzia", 2],
  ["Lululemon", 2],
  ["Levi's", 2],
  ["Zara", 1],
  ["Frank And Oak", 2],
  ["Kotn", 2],
  ["Club Monaco", 2],
  ["Uniqlo", 1],
  ["Gap", 1],
  ["Everlane", 2],
  ["Madewell", 2],
  ["Patagonia", 3],
  ["Arc'teryx", 4],
  ["Canada Goose", 5],
  ["Mackage", 4],
  ["Soia & Kyo", 3],
  ["Dr. Martens", 3],
  ["Blundstone", 3],
  ["Sorel", 3],
  ["Manitobah Mukluks", 3],
  ["Herschel Supply", 2],
  ["Matt & Nat", 2],
  ["Naked & Famous", 3],
  ["RW&Co", 1],
  ["Simons", 2],
  ["J.Crew", 2],
  ["Banana Republic", 2],
  ["COS", 2],
  ["& Other Stories", 2],
  ["Free People", 2],
  ["Reformation", 3],
  ["Ganni", 3],
  ["Sézane", 3],
  ["Vince", 3],
  ["Theory", 3],
  ["Eileen Fisher", 3],
  ["Max Mara", 4],
  ["Acne Studios", 4],
  ["Isabel Marant", 4],
  ["Burberry", 5],
  ["Gucci", 5],
  ["Prada", 5],
  ["Chanel", 5],
  ["Hermès", 5],
  ["Coach", 3],
  ["Kate Spade", 3],
  ["Nike", 2],
  ["Adidas", 2],
  ["New Balance", 2],
  ["Veja", 2],
  ["Birkenstock", 2],
  ["Ralph Lauren", 3],
  ["Tommy Hilfiger", 2],
  ["Joe Fresh", 1],
  ["Old Navy", 1],
  ["H&M", 1],
  ["Mango", 1],
  ["Wilfred", 2],
  ["Babaton", 2],
];

export const colors = [
  "black",
  "white",
  "navy",
  "grey",
  "beige",
  "brown",
  "camel",
  "cream",
  "blue",
  "light blue",
  "green",
  "olive",
  "red",
  "burgundy",
  "pink",
  "purple",
  "yellow",
  "orange",
  "silver",
  "gold",
];

export const adjectives = [
  "Vintage",
  "Classic",
  "Relaxed",
  "Slim",
  "Oversized",
  "Cropped",
  "Tailored",
  "Quilted",
  "Ribbed",
  "Pleated",
  "Organic",
  "Recycled",
  "Structured",
  "Soft",
  "Waxed",
  "Linen",
  "Wool",
  "Leather",
  "Suede",
  "Cotton",
  "Cashmere",
  "Denim",
  "Silk",
  "Merino",
];

/** Spellings stores really use, per size system. */
export const letterSpellings: string[][] = [
  ["XS", "X-Small", "XSmall"],
  ["S", "Small", "SM"],
  ["M", "Medium", "MD", "Med"],
  ["L", "Large", "LG"],
  ["XL", "X-Large", "XL"],
  ["XXL", "2XL"],
];
export const shoeSizes = [
  "5",
  "5.5",
  "6",
  "6.5",
  "7",
  "7.5",
  "8",
  "8.5",
  "9",
  "9.5",
  "10",
  "10.5",
  "11",
  "12",
];
export const waistSizes = ["26", "27", "28", "29", "30", "31", "32", "33", "34", "36", "38"];
export const inseams = ["30", "32", "34"];

export const conditionsWeighted: [string | null, number][] = [
  ["new_with_tags", 15],
  ["new_without_tags", 10],
  ["excellent", 30],
  ["good", 25],
  ["fair", 10],
  [null, 10],
];

export const storeNames = [
  "Maple & Thread",
  "Northern Closet",
  "Rue Saint-Denis Vintage",
  "Kensington Exchange",
  "Prairie Threads",
  "Harbourfront Finds",
  "Gastown Goods",
  "Bluenose Boutique",
  "Mile End Resale",
  "Okanagan Outfitters",
  "Queen West Closet",
  "Laurier Luxe",
  "Fundy Fashion",
  "Yukon Layers",
  "Rideau Wardrobe",
  "Banff Basics",
  "Chinook Clothing",
  "Muskoka Market",
];

/** Where the generated stores are (every province; no territory). */
export const provinces: Province[] = ["ON", "QC", "BC", "AB", "NS", "MB", "SK", "NB", "NL", "PE"];
