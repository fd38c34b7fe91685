/**
 * Operation ids ("GET /api/v1/products/{id}": method and OpenAPI path) of the REST operations the
 * service documents, and the id a request matches. Read from the OpenAPI document, which lists
 * every route under app/api/v1 (openapi.test.ts), so a lifecycle can only be set for an operation
 * that exists. Until the operation table exists this is the one place that knows them.
 */
import findMyWay from "find-my-way";
import { openApiDocument } from "../http/openapi";

export const apiPrefix = "/api/v1";

const httpMethods = ["get", "put", "post", "delete", "patch"] as const;

type Index = { ids: readonly string[]; router: findMyWay.Instance<findMyWay.HTTPVersion.V1> };

let index: Index | undefined;

const build = (): Index => {
  const router = findMyWay<findMyWay.HTTPVersion.V1>({ maxParamLength: 16 * 1024 });
  const ids: string[] = [];
  for (const [path, item] of Object.entries(openApiDocument().paths ?? {})) {
    for (const method of httpMethods) {
      if (!item?.[method]) continue;
      const id = `${method.toUpperCase()} ${apiPrefix}${path}`;
      ids.push(id);
      router.on(method.toUpperCase() as findMyWay.HTTPMethod, `${apiPrefix}${path.replace(/\{([^}]+)\}/g, ":$1")}`, () => undefined, { id });
    }
  }
  return { ids: ids.sort(), router };
};

/** Every documented operation id, sorted. */
export const knownOperationIds = (): readonly string[] => (index ??= build()).ids;

export const isKnownOperationId = (id: string) => knownOperationIds().includes(id);

/** The operation a request is for (HEAD counts as GET), or undefined when none matches. */
export const operationIdOf = (method: string, pathname: string): string | undefined => {
  const match = (index ??= build()).router.find((method === "HEAD" ? "GET" : method) as findMyWay.HTTPMethod, pathname);
  return (match?.store as { id: string } | undefined)?.id;
};
