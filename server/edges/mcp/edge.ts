/**
 * The HTTP edge of the two connectors (app/mcp/route.ts, app/mcp/account/route.ts): the MCP
 * Streamable HTTP transport of the official SDK in stateless mode (JSON answers, no stream), behind
 * what every edge of this service does: the request id, a Host and Origin allow-list against DNS
 * rebinding, the bearer token of the account connector (audience /mcp/account; 401 names the
 * protected-resource metadata), the partner rate limits, and the shared error body for refusals.
 * The lean layer and Next both serve these route handlers, so the front door adds X-Request-Id
 * and the security headers as for every answer.
 */
import { createHash, randomBytes } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { authenticateBearer, mcpAccountAudience } from "../../auth";
import { mcpAccountPath } from "../../auth";
import { systemClock } from "../../platform/clock";
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { AppError } from "../../core/errors";
import { clientIp } from "../../platform/http/client-ip";
import {
  consumePartnerRateLimit,
  consumeRateLimit,
  defineLimit,
  partnerPolicies,
  rateLimitHeaders,
  type RateLimitState,
} from "../../platform/rate-limit";
import { BodyTooLargeError, readCappedText } from "../../platform/http/read-body";
import { requestIdFrom } from "../../platform/http/request-id";
import { wantsFreshAnswer } from "../rest/with-partner";
import { errorResponse, json, toAppError } from "../../platform/http/respond";
import { challengeHeaders } from "../rest/bearer-challenge";
import { type Actor, createInnerContext } from "../../platform/trpc/context";
import { createCaller } from "../trpc/caller";
import { createConnectorServer } from "./connector";
import { isAllowedHost, isAllowedOrigin } from "./origins";
import { newSessionId, sessionKey } from "./session";
import { scopesOf, type ToolConnector, type ToolDefinition } from "./tools";
import { noteRequest } from "../../platform/observability/request-scope";

const maxBodyBytes = 256 * 1024;
/** What the public connector's callers hold, as a partner: the scopes of its tools (catalogue and checkout links). */
const publicScopes = scopesOf("public");
/** The scopes an assistant asks for at /mcp/account (the protected-resource metadata lists them): those of its tools. */
export const mcpAccountScopes = scopesOf("account");

/** The public connector's limits: the partner policies, counted per IP and per session. */
const publicLimiters = defineLimit("mcp", partnerPolicies);

const mcpAccountMetadataUrl = () =>
  `${env().PUBLIC_URL}/.well-known/oauth-protected-resource${mcpAccountPath}`;

/** The account connector as its challenges name it (bearer-challenge.ts). */
const accountResource = () => ({ metadataUrl: mcpAccountMetadataUrl(), scopes: mcpAccountScopes });

/** The tighter of two sets of windows (what RateLimit-* headers report). */
const tighter = (a: RateLimitState, b: RateLimitState) =>
  a.map((window, i) => (b[i] && b[i].remaining < window.remaining ? b[i] : window));

/**
 * Who calls, and `consume`, which counts a request's calls against their rate limits: the token's
 * person at /mcp/account; an IP and a session at /mcp.
 */
type Caller = {
  actor: Actor;
  owner: string;
  hasSession: boolean;
  consume: (calls: number) => Promise<RateLimitState>;
};

/**
 * At most this many JSON-RPC messages in one POST (a batch, which protocol 2025-03-26 lets a client
 * send): each counts against the rate limits, so a batch is never a way past them.
 */
export const maxBatchMessages = 20;

/** How many calls a body stands for: each message of a batch, one otherwise (not JSON included). */
const callsIn = (message: unknown) => (Array.isArray(message) ? Math.max(1, message.length) : 1);

const identify = async (
  connector: ToolConnector,
  request: Request,
  session: string | undefined,
): Promise<Caller> => {
  if (connector === "account") {
    const actor = await authenticateBearer(
      request.headers.get("authorization"),
      systemClock.now(),
      mcpAccountAudience,
    );
    if (actor.kind !== "client") throw new AppError("unauthorized");
    noteRequest({ clientId: actor.clientId, personId: actor.personId });
    return {
      actor,
      owner: `${actor.clientId}:${actor.personId ?? ""}`,
      hasSession: true,
      consume: (calls) => consumePartnerRateLimit(actor, calls),
    };
  }
  const consume = async (calls: number) => {
    const byIp = await consumeRateLimit(
      `ip:${clientIp(request.headers)}`,
      publicLimiters(),
      undefined,
      calls,
    );
    return session
      ? tighter(
          byIp,
          await consumeRateLimit(`session:${session}`, publicLimiters(), undefined, calls),
        )
      : byIp;
  };
  // Quotes and checkouts belong to the session that made them (another session's are not_found); tied
  // to no account. Without a session nothing may be made (see sessionRequired), and the caller owns
  // nothing: a per-request owner nobody can present again, so no checkout is found (not_found, never 403).
  const owner = session
    ? `mcp:${session}`
    : `mcp:sessionless:${randomBytes(12).toString("base64url")}`;
  const actor: Actor = {
    kind: "client",
    clientId: owner,
    tokenId: "mcp",
    scopes: publicScopes,
    publicAddress: clientIp(request.headers),
  };
  return { actor, owner, hasSession: Boolean(session), consume };
};

/** create_checkout's key when the assistant sent none: the same session and arguments give the same key. */
const derivedKey = (owner: string, session: string | undefined) => (args: unknown) =>
  `mcp_${createHash("sha256")
    .update(JSON.stringify([owner, session ?? null, args]))
    .digest("hex")
    .slice(0, 56)}`;

/**
 * A public caller without an MCP session may search and read the catalogue, but not price or create
 * a checkout: those belong to the session that makes them (MCP: initialize answers Mcp-Session-Id).
 */
const sessionRequired = (definition: ToolDefinition) =>
  definition.annotations.readOnlyHint || definition.annotations.destructiveHint
    ? undefined
    : new AppError("bad_request", {
        message: `${definition.name} makes something that belongs to an MCP session: initialize, then send its Mcp-Session-Id header with this call.`,
      });

const readMessage = async (request: Request): Promise<unknown> => {
  let text: string;
  try {
    text = await readCappedText(request, maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new AppError("payload_too_large", {
        message: `The body is larger than ${maxBodyBytes} bytes.`,
      });
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const isInitialize = (message: unknown) =>
  (Array.isArray(message) ? message : [message]).some(
    (entry) => (entry as { method?: unknown })?.method === "initialize",
  );

const withHeaders = (response: Response, headers: Record<string, string>) => {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
};

const jsonRpcError = (status: number, code: number, message: string) =>
  json({ jsonrpc: "2.0", id: null, error: { code, message } }, status);

/** The route handler of one connector (POST only: stateless mode has no stream to GET and no session to DELETE). */
export const mcpRoute =
  (connector: ToolConnector) =>
  async (request: Request): Promise<Response> => {
    const requestId = requestIdFrom(request.headers.get("x-request-id"));
    let limits: RateLimitState = [];
    const headers = () => ({ "X-Request-Id": requestId, ...rateLimitHeaders(limits) });
    try {
      if (
        !isAllowedHost(request.headers.get("host")) ||
        !isAllowedOrigin(request.headers.get("origin"))
      ) {
        throw new AppError("forbidden", {
          message:
            "This connector answers only requests addressed to its own host, from no browser origin or its own.",
        });
      }
      if (request.method !== "POST") {
        throw new AppError("method_not_allowed", {
          message: "This connector is stateless: send JSON-RPC messages with POST.",
          headers: { Allow: "POST" },
        });
      }
      const now = systemClock.now();
      const given = request.headers.get("mcp-session-id");
      const session = given ? sessionKey(given, now) : undefined;
      // MCP: an unknown session is 404, and the client starts a new one with initialize.
      if (given && !session)
        return withHeaders(
          jsonRpcError(404, -32001, "Session not found: initialize again."),
          headers(),
        );
      const caller = await identify(connector, request, session);
      // One call counted before the body is read (a flood of oversized or broken bodies is limited
      // too); a batch's other messages once it is parsed.
      limits = await caller.consume(1);
      const message = await readMessage(request);
      const calls = callsIn(message);
      if (calls > maxBatchMessages)
        return withHeaders(
          jsonRpcError(
            400,
            -32600,
            `Invalid Request: at most ${maxBatchMessages} messages in a batch.`,
          ),
          headers(),
        );
      if (calls > 1) limits = await caller.consume(calls - 1);
      if (message === undefined)
        return withHeaders(
          jsonRpcError(400, -32700, "Parse error: the body is not JSON."),
          headers(),
        );

      const callerApi = createCaller(
        createInnerContext({
          db: db(),
          actor: caller.actor,
          requestId,
          wantsFresh: wantsFreshAnswer(request.headers),
        }),
      );
      const server = createConnectorServer(connector, {
        caller: callerApi,
        requestId,
        idempotencyKey: derivedKey(caller.owner, session),
        refuse: caller.hasSession ? undefined : sessionRequired,
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        const response = await transport.handleRequest(request, { parsedBody: message });
        if (response.ok && isInitialize(message))
          response.headers.set("Mcp-Session-Id", given ?? newSessionId(now));
        return withHeaders(response, headers());
      } finally {
        await server.close();
      }
    } catch (error) {
      const appError = toAppError(error, requestId);
      const challenge =
        connector === "account" ? challengeHeaders(appError, request, accountResource()) : {};
      return errorResponse(appError, { ...headers(), ...challenge });
    }
  };
