import { handleRestRequest } from "@/server/edges/rest/rest-router";

export const dynamic = "force-dynamic";

/**
 * Every /api/v1 operation, routed from the operation table (server/edges/rest/operations.ts); a path no
 * entry has answers the JSON 404. All seven methods go to the router, which answers HEAD, OPTIONS
 * and 405 with Allow per path as Next would for a route file.
 */
export {
  handleRestRequest as GET,
  handleRestRequest as HEAD,
  handleRestRequest as OPTIONS,
  handleRestRequest as POST,
  handleRestRequest as PUT,
  handleRestRequest as PATCH,
  handleRestRequest as DELETE,
};
