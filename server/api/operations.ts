/**
 * The operation table: every public /api/v1 operation, declared once. REST routing (the lean layer
 * and Next's catch-all app/api/v1/[...path]/route.ts both go through server/api/rest-router.ts), the
 * OpenAPI document (server/http/openapi.ts), the scope checks (with-partner.ts and the procedures,
 * through `scopeOf`) and the MCP tools read it. operations.test.ts fails when a route file, an
 * OpenAPI path or an MCP tool exists without its entry, or an entry is not routed.
 *
 * To add an operation:
 * 1. Write its procedure as usual (server/routers/<resource>/<operation>.ts), guarded by
 *    `scopedProcedure(scopeOf("POST /api/v1/things"))` (or `personDataProcedure(...)`), and wire it
 *    in the resource's router.ts.
 * 2. Add one `defineOperation({...})` entry to the resource's file here (server/api/<resource>.ts;
 *    a new resource gets a new file, listed in `operations` below): `id` is "METHOD /api/v1/path"
 *    with {name} path parameters (also the deprecation/brownout key), `tool` the MCP tool name if it
 *    has one, `scope`, `access`, the zod `input` parts (params, query, body, headers) and `output`,
 *    `status` (201 for a create), `operationId`, `summary`, `description`, the operation's own error
 *    `responses`, and `call`, which calls the procedure and returns `{ body, status?, headers? }`.
 * 3. Nothing else: no route file under app/api/v1 (a route file there would shadow the table and
 *    fails operations.test.ts), no OpenAPI paths by hand.
 */
import { accountOperations } from "./account";
import { catalogOperations } from "./catalog";
import { checkoutOperations } from "./checkout";
import type { Operation, OperationId } from "./operation";
import { priceWatchOperations } from "./price-watches";
import { purchaseOperations } from "./purchases";
import { sandboxOperations } from "./sandbox";

export const operations: readonly Operation[] = [...catalogOperations, ...checkoutOperations, ...accountOperations, ...purchaseOperations, ...priceWatchOperations, ...sandboxOperations];

const byId = new Map<string, Operation>(operations.map((operation) => [operation.id, operation]));

/** The operation with this key ("GET /api/v1/products"); throws for an unknown key, so a typo fails at load. */
export const operation = (id: OperationId): Operation => {
  const found = byId.get(id);
  if (!found) throw new Error(`No operation ${id} in server/api/operations.ts`);
  return found;
};

/** The scope the operation needs: what its procedure and the REST wrapper check. */
export const scopeOf = (id: OperationId) => operation(id).scope;

/** The operations that are MCP tools, with their tool names (for server/mcp). */
export const toolOperations = () => operations.filter((entry): entry is Operation & { tool: string } => entry.tool !== undefined);
