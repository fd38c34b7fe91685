/**
 * The OpenAPI 3.1 document, built from the same zod schemas the procedures validate with. Each
 * resource contributes its paths from `server/routers/<resource>/<resource>.openapi.ts`; every REST
 * route must appear (openapi.test.ts checks the app/api/v1 folder against `paths`).
 */
import { createDocument } from "zod-openapi";
import { allScopes } from "../auth/scopes";
import { env } from "../env";
import { catalogPaths } from "../routers/catalog/catalog.openapi";
import { accountPaths } from "../routers/account/account.openapi";
import { checkoutPaths } from "../routers/checkout/checkout.openapi";
import { ordersPaths } from "../routers/orders/orders.openapi";
import { sandboxPaths } from "../routers/sandbox/sandbox.openapi";
import { priceWatchesPaths } from "../routers/price-watches/price-watches.openapi";
import { purchasesPaths } from "../routers/purchases/purchases.openapi";

const resourcePaths = [catalogPaths, accountPaths, checkoutPaths, ordersPaths, purchasesPaths, priceWatchesPaths, sandboxPaths];

const scopeDescriptions: Record<(typeof allScopes)[number], string> = {
  "catalog:read": "Search items; read item and store details",
  "checkout:write": "Create quotes and checkouts",
  "profile:read": "Read the person's name, email and saved sizes",
  "orders:read": "Read the person's orders and tracking",
  "address:read": "Read the person's saved shipping address",
  "purchase:write": "Buy with the person's saved card within their limits",
  "alerts:write": "Set, list and stop the person's price-drop alerts",
};

let cached: ReturnType<typeof createDocument> | undefined;

export const openApiDocument = () =>
  (cached ??= createDocument({
    openapi: "3.1.0",
    info: {
      title: "Shopping API",
      version: "1.6.0",
      description:
        "Search the catalogue of independent Canadian fashion stores, price orders and create hosted checkout links. Money is a two-decimal string in CAD. Errors share one body: {error: {code, message, fields?}}. Every response carries X-Request-Id; partner responses carry RateLimit-Policy, RateLimit, RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (120 a minute and 3,000 an hour per client).",
    },
    servers: [{ url: `${env().PUBLIC_URL}/api/v1` }],
    components: {
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          flows: {
            clientCredentials: { tokenUrl: `${env().PUBLIC_URL}/oauth/token`, scopes: { "catalog:read": scopeDescriptions["catalog:read"], "checkout:write": scopeDescriptions["checkout:write"] } },
            authorizationCode: { authorizationUrl: `${env().PUBLIC_URL}/oauth/authorize`, tokenUrl: `${env().PUBLIC_URL}/oauth/token`, scopes: scopeDescriptions },
          },
        },
      },
    },
    security: [{ oauth2: [] }],
    paths: Object.assign({}, ...resourcePaths),
  }));
