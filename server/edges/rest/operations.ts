/**
 * The operation table: every public /api/v1 operation, declared once. REST routing (the lean layer
 * and Next's catch-all app/api/v1/[...path]/route.ts both go through server/edges/rest/rest-router.ts), the
 * OpenAPI document (server/edges/rest/openapi.ts) and the MCP tools read it. operations.test.ts fails
 * when a route file, an OpenAPI path or an MCP tool exists without its entry, or an entry is not
 * routed, or an entry's security is not its procedure's meta.
 *
 * To add an operation:
 * 1. Write its procedure in its capability, declaring who may call it once:
 *    `procedure({ caller: "partner", scope: "catalog:read" })` ("person" or "assistant" for a token
 *    a person granted; `clientProcedure` for any token of the client, no scope), and wire it in the
 *    capability's router.
 * 2. Add one `defineOperation({...})` entry to the resource's file here (server/edges/rest/<resource>.ts;
 *    a new resource gets a new file, listed in `operations` below): `id` is "METHOD /api/v1/path"
 *    with {name} path parameters (also the deprecation/brownout key), `procedure` its path in the
 *    app router ("things.create", whose meta gives the scope and caller), `tool` the MCP tool name if
 *    it has one, the zod `input` parts (params, query, body, headers) and `output`, `status` (201
 *    for a create), `operationId`, `summary`, `description`, the operation's own error `responses`,
 *    and `call`, which calls that procedure and returns `{ body, status?, headers? }`.
 * 3. Nothing else: no route file under app/api/v1 (a route file there would shadow the table and
 *    fails operations.test.ts), no OpenAPI paths by hand. request-fields.integration.test.ts runs
 *    its unknown-field, null and mass-assignment checks on the new entry by itself (give it a
 *    realistic request there for a meaningful baseline).
 *
 * Lifecycle: an entry has no lifecycle field. Deprecation, brownouts and retirement are set at run
 * time (`npm run ops -- endpoint:deprecate "<id>" ...`, which accepts only ids of this table) and
 * live only in the endpoint_lifecycles table, keyed by the entry's `id`; every instance reads it at
 * most a second late (server/edges/rest/lifecycle-store.ts). The REST router passes the matched
 * entry's id to withPartner, which adds the Deprecation/Sunset/Link headers or answers 410 retired
 * (server/edges/rest/lifecycle-verdict.ts) and records the call for the deprecation notices; the served OpenAPI
 * document marks the entries deprecated now (openApiDocumentNow); MCP tools call
 * `retiredErrorFor(entry.id)`. One source, so the document, REST and MCP cannot disagree.
 */
import { accountOperations } from "./account";
import { catalogOperations } from "./catalog";
import { checkoutOperations } from "./checkout";
import type { Operation, OperationId } from "./operation";
import { priceAlertOperations } from "./price-alerts";
import { priceWatchOperations } from "./price-watches";
import { priceWatchGroupOperations } from "./price-watch-groups";
import { purchaseOperations } from "./purchases";
import { sandboxOperations } from "./sandbox";
import { searchWatchOperations } from "./search-watches";
import { webhookOperations } from "./webhooks";

export const operations: readonly Operation[] = [
  ...catalogOperations,
  ...checkoutOperations,
  ...accountOperations,
  ...purchaseOperations,
  ...priceWatchOperations,
  ...priceWatchGroupOperations,
  ...priceAlertOperations,
  ...searchWatchOperations,
  ...sandboxOperations,
  ...webhookOperations,
];

const byId = new Map<string, Operation>(operations.map((operation) => [operation.id, operation]));

/** Whether `id` is an entry's key (the ops CLI refuses lifecycles for anything else). */
export const isOperationId = (id: string): id is OperationId => byId.has(id);

/** The operations that are MCP tools, with their tool names (for server/mcp). */
export const toolOperations = () =>
  operations.filter((entry): entry is Operation & { tool: string } => entry.tool !== undefined);
