/**
 * One connector's MCP server for one request (stateless mode: nothing is kept between requests).
 * tools/list answers the connector's tools with JSON Schemas generated once from their zod
 * schemas; tools/call parses the arguments with the operation's own schema and calls its
 * procedure. Failures are tool results with isError, never protocol errors: the text is the REST
 * error body ({"error": {"code", "message", "fields"?}}), so invalid arguments give invalid_request
 * with the fields, exactly as the REST call would.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { z } from "zod";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AppError, errorBody } from "../../core/errors";
import { retiredErrorFor } from "../rest/lifecycle-verdict";
import { toAppError } from "../../platform/http/respond";
import { zodFields } from "../../core/zod-fields";
import { changes } from "../rest/changes";
import { toolJsonSchema } from "./json-schema";
import { type ToolCall, type ToolConnector, type ToolDefinition, toolsOf } from "./tools";

const serverInfo = { name: "shopping-api", title: "Shopping API", version: changes[0].version };

const instructions: Record<ToolConnector, string> = {
  public:
    "Search items in Canadian stores, price an order for an address, and create a checkout link the person opens to pay. Prices are CAD. Flow: search_products, get_product, create_quote, create_checkout, then get_checkout to follow it.",
  account:
    "The signed-in person's connector: the catalogue and checkout tools, plus their profile and saved sizes (get_me), saved address (get_my_shipping_address) and orders (list_my_orders, get_my_order). The person always pays on the checkout link.",
};

/** The MCP description of a tool, generated once per process. */
const listed = new Map<string, Tool>();
const describeTool = (definition: ToolDefinition): Tool => {
  const known = listed.get(definition.name);
  if (known) return known;
  const entry: Tool = {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: toolJsonSchema(definition.input, "input"),
    outputSchema: toolJsonSchema(definition.output, "output"),
    annotations: { title: definition.title, ...definition.annotations },
  };
  listed.set(definition.name, entry);
  return entry;
};

/** A tool result carrying the REST error body of `error`. */
const errorResult = (error: AppError): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: JSON.stringify(errorBody(error)) }],
});

/** Runs one tool: parse with the operation's schema, call its procedure, answer structured content and text. */
export const runTool = async (
  definition: ToolDefinition,
  args: unknown,
  call: ToolCall & { requestId: string },
): Promise<CallToolResult> => {
  // The tool is its REST operation: retired (after its sunset, in a brownout) at the same moments.
  const retired = await retiredErrorFor(definition.operation);
  if (retired) return errorResult(retired);
  const refused = call.refuse?.(definition);
  if (refused) return errorResult(refused);
  const parsed = definition.input.safeParse(args ?? {});
  if (!parsed.success)
    return errorResult(new AppError("invalid_request", { fields: zodFields(parsed.error) }));
  try {
    const result = await definition.call(parsed.data as Record<string, unknown>, call);
    return {
      structuredContent: result as Record<string, unknown>,
      content: [{ type: "text", text: definition.text(result) }],
    };
  } catch (error) {
    return errorResult(toAppError(error, call.requestId));
  }
};

/**
 * A request handler whose params are checked here: the SDK's own parse of a request answers a
 * malformed one (`"params": {"name": 42}`) -32603 Internal error with the validator's dump. Here
 * it is -32602 Invalid params naming each field and why, as JSON-RPC has it. The SDK is given a
 * schema that takes any params of the method.
 */
const onRequest = <Schema extends typeof ListToolsRequestSchema | typeof CallToolRequestSchema>(
  server: Server,
  schema: Schema,
  handler: (request: z.infer<Schema>) => unknown,
) => {
  const anyParams = z.looseObject({ method: schema.shape.method });
  server.setRequestHandler(anyParams, (request) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) {
      const why = parsed.error.issues
        .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
        .join("; ");
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${why}`);
    }
    return handler(parsed.data as z.infer<Schema>) as never;
  });
};

/** The MCP server of `connector` for one request, its tool calls made as `call` says. */
export const createConnectorServer = (
  connector: ToolConnector,
  call: ToolCall & { requestId: string },
) => {
  const definitions = toolsOf(connector);
  const server = new Server(serverInfo, {
    capabilities: { tools: { listChanged: false } },
    instructions: instructions[connector],
  });
  onRequest(server, ListToolsRequestSchema, () => ({
    tools: definitions.map(describeTool),
  }));
  onRequest(server, CallToolRequestSchema, (request) => {
    const definition = definitions.find((candidate) => candidate.name === request.params.name);
    // An unknown tool is a protocol error (the client asked for something not listed), as the spec has it.
    if (!definition)
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return runTool(definition, request.params.arguments, call);
  });
  return server;
};
