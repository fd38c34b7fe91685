/**
 * The OpenAPI 3.1 document, built from the operation table (server/edges/rest/operations.ts): each entry's
 * path, schemas (the same zod schemas the procedures validate with), words and responses, and the
 * scope its procedure's meta declares (security, and the 403 of an operation that has one).
 * operations.test.ts checks that every path here is an entry and every entry is routed.
 * `info.version` is the newest entry of the change history (server/edges/rest/changes.ts). Deprecation is
 * not in the cached document: openApiDocumentNow marks each entry whose id has a live lifecycle
 * (endpoint_lifecycles, at most a second old) when the document is served.
 */
import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from "zod-openapi";
import { acceptedScopes, type Operation, scopeOf } from "./operation";
import { operations } from "./operations";
import { allScopes } from "../../auth";
import { apiVersion } from "./changes";
import { env } from "../../platform/env";
import { currentLifecycles } from "./lifecycle-store";
import { markDeprecated } from "./lifecycle-verdict";
import { addExamples } from "./openapi-examples";
import { bodyErrors, commonErrors, ok } from "./openapi-parts";
import { responseHeaderComponents, withResponseHeaders } from "./openapi-headers";

const success = (entry: Operation) =>
  entry.output
    ? ok(entry.output, entry.outputDescription)
    : { description: entry.outputDescription ?? "No content" };

/** The common errors; an entry any token of the client may call has no scope to lack (no 403). */
const errorsOf = (entry: Operation) => {
  if (scopeOf(entry) !== null) return commonErrors;
  const { 403: _insufficientScope, ...errors } = commonErrors;
  return errors;
};

/** One security requirement per scope that admits the call (any one will do); no scope for any token of the client. */
const securityOf = (entry: Operation) => {
  const scopes = acceptedScopes(entry);
  return scopes.length ? scopes.map((scope) => ({ oauth2: [scope] })) : [{ oauth2: [] }];
};

/** One table entry as an OpenAPI operation: success response, common errors, then the entry's own. */
const toOperationObject = (entry: Operation): ZodOpenApiOperationObject => {
  const { params, query, headers, body, bodyRequired } = entry.input;
  // The table's parameter schemas are zod objects (the entry's type only says zod); one without fields (/me's) lists none.
  const hasQuery = query instanceof z.ZodObject && Object.keys(query.shape).length > 0;
  const requestParams = {
    ...(params ? { path: params } : {}),
    ...(hasQuery ? { query } : {}),
    ...(headers ? { header: headers } : {}),
  } as ZodOpenApiOperationObject["requestParams"];
  return {
    operationId: entry.operationId,
    summary: entry.summary,
    ...(entry.description ? { description: entry.description } : {}),
    // No scope listed: any token of the client (a "client" procedure).
    security: securityOf(entry),
    ...(Object.keys(requestParams ?? {}).length ? { requestParams } : {}),
    ...(body
      ? {
          requestBody: {
            required: bodyRequired ?? true,
            content: { "application/json": { schema: body } },
          },
        }
      : {}),
    // Every operation but a GET reads its body (unknown fields are ignored, not the body), so each may answer 413 and 415.
    responses: withResponseHeaders(entry, {
      [entry.status]: success(entry),
      ...(entry.method !== "GET" ? bodyErrors : {}),
      ...errorsOf(entry),
      ...entry.responses,
    }),
  };
};

const toPaths = (entries: readonly Operation[]): ZodOpenApiPathsObject => {
  const paths: ZodOpenApiPathsObject = {};
  for (const entry of entries)
    paths[entry.path] = {
      ...paths[entry.path],
      [entry.method.toLowerCase()]: toOperationObject(entry),
    };
  return paths;
};

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
/** Fields the composed examples had nothing to show for (openapi-examples.test.ts wants none). */
let examplesMissing: string[] = [];

/** The document with every schema's example composed from its fields' (openapi-examples.ts). */
const withExamples = (document: ReturnType<typeof createDocument>) => {
  examplesMissing = addExamples(document).missing;
  return document;
};

export const openApiDocument = () =>
  (cached ??= withExamples(
    createDocument({
      openapi: "3.1.0",
      info: {
        title: "Shopping API",
        license: {
          name: "Proprietary; partner terms apply",
          url: `${env().PUBLIC_URL}/developers`,
        },
        version: apiVersion,
        description:
          "Search the catalogue of independent Canadian fashion stores, price orders and create hosted checkout links. Money is a two-decimal string in CAD. Errors share one body: {error: {code, message, fields?}}. Every response carries X-Request-Id; partner responses carry RateLimit-Policy, RateLimit, RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (120 a minute and 3,000 an hour per client).",
      },
      // Relative to the document's own origin (/api/v1/openapi.json), so it is right behind any host.
      servers: [{ url: "/api/v1", description: "This service" }],
      components: {
        headers: responseHeaderComponents,
        securitySchemes: {
          oauth2: {
            type: "oauth2",
            flows: {
              clientCredentials: {
                tokenUrl: `${env().PUBLIC_URL}/oauth/token`,
                scopes: {
                  "catalog:read": scopeDescriptions["catalog:read"],
                  "checkout:write": scopeDescriptions["checkout:write"],
                },
              },
              authorizationCode: {
                authorizationUrl: `${env().PUBLIC_URL}/oauth/authorize`,
                tokenUrl: `${env().PUBLIC_URL}/oauth/token`,
                scopes: scopeDescriptions,
              },
            },
          },
        },
      },
      security: [{ oauth2: [] }],
      paths: toPaths(operations),
    }),
  ));

export const openApiExamplesMissing = () => {
  openApiDocument();
  return examplesMissing;
};

/** The document as served: the entries deprecated right now in the live lifecycle are marked (deprecated: true, dates in the description). */
export const openApiDocumentNow = async () =>
  markDeprecated(openApiDocument(), operations, await currentLifecycles());
