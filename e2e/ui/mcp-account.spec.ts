/**
 * [MCP] The account connector as an assistant meets it: the official SDK's client gets 401, finds
 * the protected-resource and authorization-server metadata, registers (dynamically, or with a
 * client ID metadata document served over https from this machine under the documented
 * CLIENT_METADATA_LOOPBACK allowance), sends the person to authorize with PKCE and the connector as
 * `resource`; the person signs in and approves on the consent page in the browser; the client
 * exchanges the code and calls get_me and list_my_orders. Its token is refused by /api/v1.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type Page } from "@playwright/test";
import { ops, serviceState } from "../fixtures/api-client";
import { signIn, snap, unique } from "../fixtures/shoppers";

const redirectUri = "http://127.0.0.1:8976/callback";

/** An assistant's OAuth state, kept in memory; `authorizationUrl` is where it would open the browser. */
class AssistantProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  constructor(
    private readonly name: string,
    readonly clientMetadataUrl?: string,
  ) {}
  get redirectUrl() {
    return redirectUri;
  }
  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const connectorUrl = (baseURL: string) => new URL(`${baseURL}/mcp/account`);

/** Runs the whole sign-in: discovery and registration by the SDK, sign-in and Approve in the browser, code exchange. */
const linkAssistant = async (options: {
  page: Page;
  baseURL: string;
  provider: AssistantProvider;
  email: string;
  password: string;
  appName: string;
  snapName: string;
  testInfo: import("@playwright/test").TestInfo;
  /** The name the consent page gives the app, when not `appName` (a metadata document's app: its host beside it). */
  consentName?: string;
}) => {
  const { page, provider } = options;
  const first = new Client({ name: options.appName, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(connectorUrl(options.baseURL), {
    authProvider: provider,
  });
  await expect(first.connect(transport)).rejects.toThrow(/Unauthorized/);
  const authorizationUrl = provider.authorizationUrl!;
  expect(authorizationUrl.searchParams.get("resource")).toBe(connectorUrl(options.baseURL).href);
  expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");

  // The assistant's loopback callback is not listening here: answer it in the browser and keep the URL.
  await page.route("http://127.0.0.1:8976/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<h1>Assistant</h1>" }),
  );
  await page.goto(authorizationUrl.href);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await signIn(page, options.email, options.password);
  await expect(
    page.getByRole("heading", {
      name: `${options.consentName ?? options.appName} wants to connect to your account`,
      exact: true,
    }),
  ).toBeVisible();
  await expect(page.getByText("you will return to 127.0.0.1:8976")).toBeVisible();
  await expect(page.getByText("See your orders and their tracking")).toBeVisible();
  await snap(page, options.testInfo, options.snapName);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:8976\/callback\?/);
  const code = new URL(page.url()).searchParams.get("code")!;
  await transport.finishAuth(code);
  await page.context().clearCookies();

  const client = new Client({ name: options.appName, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(connectorUrl(options.baseURL), { authProvider: provider }),
  );
  return client;
};

const structured = (result: CallToolResult) => {
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent as Record<string, unknown>;
};

/** Serves a client ID metadata document over https on 127.0.0.1 (the service trusts this certificate: e2e/serve.ts). */
const serveMetadataDocument = async (name: string) => {
  const tls = (serviceState() as unknown as { loopbackTls: { key: string; cert: string } })
    .loopbackTls;
  let url = "";
  const server: Server = createServer(
    { key: readFileSync(tls.key), cert: readFileSync(tls.cert) },
    (request, response) => {
      if (request.url !== "/assistant/client.json") return void response.writeHead(404).end();
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          client_id: url,
          client_name: name,
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: "none",
        }),
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/assistant/client.json`;
  return { url, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

const newPerson = () => {
  const email = `mcp-${unique()}@example.ca`;
  const password = "sandbox password 1";
  ops("person:create", "--email", email, "--password", password, "--name", "Ines", "--verified");
  return { email, password };
};

test.describe("[MCP] account connector sign-in", () => {
  test("discovery, dynamic registration, PKCE consent in the browser, then get_me and list_my_orders; the token is refused by /api/v1", async ({
    page,
    request,
    baseURL,
  }, testInfo) => {
    const metadata = await (
      await request.get("/.well-known/oauth-protected-resource/mcp/account")
    ).json();
    expect(metadata).toMatchObject({
      resource: `${baseURL}/mcp/account`,
      authorization_servers: [baseURL],
    });
    expect(
      (await (await request.get("/.well-known/oauth-authorization-server")).json())
        .client_id_metadata_document_supported,
    ).toBe(true);

    const person = newPerson();
    const provider = new AssistantProvider("Registered Assistant");
    const client = await linkAssistant({
      page,
      baseURL: baseURL!,
      provider,
      ...person,
      appName: "Registered Assistant",
      snapName: "mcp-consent-registered",
      testInfo,
    });
    expect(provider.information?.client_id).toMatch(/^cli_/);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("get_my_order");
    expect(structured((await client.callTool({ name: "get_me" })) as CallToolResult)).toMatchObject(
      { email: person.email, name: "Ines" },
    );
    expect(
      structured(
        (await client.callTool({
          name: "list_my_orders",
          arguments: { per_page: 5 },
        })) as CallToolResult,
      ),
    ).toMatchObject({ data: [], pagination: { total: 0 } });
    await client.close();

    const rest = await request.get("/api/v1/me", {
      headers: { Authorization: `Bearer ${provider.saved!.access_token}` },
    });
    expect(rest.status()).toBe(401);
    expect((await rest.json()).error.code).toBe("unauthorized");
  });

  test("a client ID metadata document instead of registration: the consent page shows the document's name and its host", async ({
    page,
    baseURL,
  }, testInfo) => {
    const document = await serveMetadataDocument("Metadata Assistant");
    try {
      const person = newPerson();
      const provider = new AssistantProvider("Metadata Assistant", document.url);
      const consentName = `Metadata Assistant (${new URL(document.url).host})`;
      const client = await linkAssistant({
        page,
        baseURL: baseURL!,
        provider,
        ...person,
        appName: "Metadata Assistant",
        consentName,
        snapName: "mcp-consent-metadata-document",
        testInfo,
      });
      expect(provider.information?.client_id).toBe(document.url);
      expect(
        structured((await client.callTool({ name: "get_me" })) as CallToolResult),
      ).toMatchObject({ email: person.email });
      expect(
        structured((await client.callTool({ name: "list_my_orders" })) as CallToolResult),
      ).toMatchObject({ pagination: { total: 0 } });
      await client.close();
    } finally {
      await document.stop();
    }
  });
});
