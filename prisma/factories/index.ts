/**
 * Test data builders shared by integration tests and e2e: each call makes unique rows, so tests
 * never depend on each other's data or on a global truncation.
 */
import { randomBytes } from "node:crypto";
import { db } from "../../server/platform/db";
import { issueAccessToken } from "../../server/auth/tokens";
import { randomId, randomSecret, sha256 } from "../../server/core/ids";
import { sizeKeys } from "../../server/core/sizes";
import type { Prisma } from "../../server/generated/prisma/client";

const unique = () => randomBytes(4).toString("hex");

export const createStore = async (overrides: Partial<Prisma.StoreUncheckedCreateInput> = {}) => {
  const slug = overrides.slug ?? `store-${unique()}`;
  return db().store.create({
    data: {
      slug,
      name: `Store ${slug}`,
      url: `https://${slug}.shops.example.ca`,
      province: "ON",
      freeShippingThresholdCents: 10000,
      // Connected to its sandbox account, as the seed connects every store (docs/adr/0106).
      payoutAccount: `acct_sandbox_${slug}`,
      ...overrides,
      shippingRates: {
        create: [
          {
            key: "standard",
            label: "Canada Post Regular Parcel",
            baseCents: 995,
            perItemCents: 250,
            remoteSurchargeCents: 1500,
            minDays: 4,
            maxDays: 9,
          },
          {
            key: "express",
            label: "Purolator Express",
            baseCents: 2495,
            perItemCents: 500,
            remoteSurchargeCents: 3000,
            minDays: 1,
            maxDays: 2,
          },
        ],
      },
    },
  });
};

export const createCategory = async (path: string) => {
  const parts = path.split(" > ");
  let parentId: number | null = null;
  let category = null;
  for (let depth = 0; depth < parts.length; depth++) {
    const current = parts.slice(0, depth + 1).join(" > ");
    category = await db().category.upsert({
      where: { path: current },
      create: { path: current, name: parts[depth], depth, parentId },
      update: {},
    });
    parentId = category.id;
  }
  return category!;
};

type ItemOptions = {
  storeId: number;
  title?: string;
  brand?: string | null;
  categoryPath?: string;
  priceCents?: number;
  sizes?: string[];
  color?: string;
  condition?: Prisma.ItemUncheckedCreateInput["condition"];
  createdAt?: Date;
  quantity?: number;
  status?: Prisma.ItemUncheckedCreateInput["status"];
};

export const createItem = async (options: ItemOptions) => {
  const sizes = options.sizes ?? ["M"];
  const color = options.color ?? "black";
  const category = options.categoryPath ? await createCategory(options.categoryPath) : null;
  const id = unique();
  return db().item.create({
    data: {
      storeId: options.storeId,
      categoryId: category?.id,
      title: options.title ?? `Test item ${id}`,
      brand: options.brand === undefined ? "Test Brand" : options.brand,
      description: "A test item.",
      priceCents: options.priceCents ?? 4999,
      condition: options.condition === undefined ? "good" : options.condition,
      url: `https://example.ca/products/${id}`,
      status: options.status ?? "active",
      sizes,
      sizeKeys: sizeKeys(sizes),
      colors: [color],
      createdAt: options.createdAt,
      variants: {
        create: sizes.map((size) => ({
          size,
          sizeKey: sizeKeys([size])[0],
          color,
          quantity: options.quantity ?? 1,
        })),
      },
      images: { create: [{ url: `/images/items/${id}/1.svg`, position: 0, isCover: true }] },
    },
  });
};

/** A partner client with its secret, and optionally a ready access token. */
export const createPartner = async (options: { scopes?: string[]; linking?: boolean } = {}) => {
  const secret = randomSecret("sec_");
  const client = await db().apiClient.create({
    data: {
      id: randomId("cli_"),
      name: `Partner ${unique()}`,
      secretHash: sha256(secret),
      scopes: options.scopes ?? ["catalog:read", "checkout:write"],
      linkingEnabled: options.linking ?? false,
    },
  });
  const token = async (scopes: string[] = client.scopes) =>
    (await issueAccessToken(db(), { clientId: client.id, scopes, now: new Date() })).token;
  return { client, secret, token };
};

/**
 * A webhook endpoint at `url` hearing checkout.paid, as if registered earlier (registration's checks
 * are tested on their own): of `clientId`'s partner, or of a new partner's.
 */
export const createWebhookEndpoint = async (url: string, clientId?: string) => {
  const owner = { clientId: clientId ?? (await createPartner()).client.id, personId: null };
  const endpoint = await db().webhookEndpoint.create({
    data: {
      id: `we_${crypto.randomUUID()}`,
      ...owner,
      url,
      eventTypes: ["checkout.paid"],
      secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdA",
    },
  });
  return { owner, endpointId: endpoint.id };
};

// ---- Accounts (issue 4) ----------------------------------------------------------------------

/** A person with a known password; confirmed unless `verified: false`. */
export const createPerson = async (
  options: {
    verified?: boolean;
    name?: string | null;
    sizes?: string[];
    password?: string;
    email?: string;
  } = {},
) => {
  const { hashPassword } = await import("../../server/auth/passwords");
  const password = options.password ?? `pw-${unique()}-${unique()}`;
  const person = await db().person.create({
    data: {
      id: randomId("per_"),
      email: options.email ?? `shopper-${unique()}@example.ca`,
      name: options.name === undefined ? "Test Shopper" : options.name,
      passwordHash: await hashPassword(password),
      emailVerifiedAt: options.verified === false ? null : new Date(),
      sizes: options.sizes ?? [],
    },
  });
  return { person, password };
};

/** A partner client with account linking switched on and registered redirect URIs. */
export const createLinkingPartner = async (
  options: { scopes?: string[]; redirectUris?: string[]; linking?: boolean } = {},
) => {
  const secret = randomSecret("sec_test_");
  const client = await db().apiClient.create({
    data: {
      id: randomId("cli_test_"),
      name: `Linking Partner ${unique()}`,
      kind: "partner",
      secretHash: sha256(secret),
      scopes: options.scopes ?? [
        "catalog:read",
        "checkout:write",
        "profile:read",
        "orders:read",
        "address:read",
        "alerts:write",
      ],
      redirectUris: options.redirectUris ?? ["https://partner.example.com/callback"],
      linkingEnabled: options.linking ?? true,
    },
  });
  return { client, secret };
};

/** An assistant as if registered at /oauth/register/agent: a public client (no secret) holding every scope. */
export const createAgent = async (options: { scopes?: string[]; redirectUris?: string[] } = {}) =>
  db().apiClient.create({
    data: {
      id: randomId("cli_test_"),
      name: `Assistant ${unique()}`,
      kind: "agent",
      secretHash: null,
      scopes: options.scopes ?? [
        "catalog:read",
        "checkout:write",
        "profile:read",
        "orders:read",
        "address:read",
        "purchase:write",
        "alerts:write",
      ],
      redirectUris: options.redirectUris ?? ["http://127.0.0.1:8976/callback"],
      linkingEnabled: true,
    },
  });
/** A person (verified email) and an access token they granted a partner by linking (issue 5 tests). */
export const createLinkedPerson = async (options: { scopes?: string[]; email?: string } = {}) => {
  const partner = await createPartner({
    linking: true,
    scopes: ["catalog:read", "checkout:write", "orders:read", "profile:read"],
  });
  const person = await db().person.create({
    data: {
      id: randomId("per_"),
      email: (options.email ?? `person-${unique()}@example.ca`).toLowerCase(),
      name: "Linked Person",
      emailVerifiedAt: new Date(),
    },
  });
  const scopes = options.scopes ?? ["catalog:read", "checkout:write", "orders:read"];
  const { token } = await issueAccessToken(db(), {
    clientId: partner.client.id,
    scopes,
    personId: person.id,
    now: new Date(),
  });
  return { person, partner, token };
};
