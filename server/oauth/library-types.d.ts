/** Types for the two grant types of @node-oauth/oauth2-server that grant-types.ts extends (the package types only its public entry). */
declare module "@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type" {
  import type {
    AbstractGrantType,
    AuthorizationCode,
    Client,
    Request,
    Token,
    User,
  } from "@node-oauth/oauth2-server";
  export default class AuthorizationCodeGrantType extends AbstractGrantType {
    model: unknown;
    getAuthorizationCode(request: Request, client: Client): Promise<AuthorizationCode>;
    verifyPKCE(request: Request, code: AuthorizationCode): void;
    validateRedirectUri(request: Request, code: AuthorizationCode): void;
    saveToken(
      user: User,
      client: Client,
      authorizationCode: string,
      scope?: string[],
    ): Promise<Token>;
  }
}

declare module "@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type" {
  import type {
    AbstractGrantType,
    Client,
    RefreshToken,
    Request,
    Token,
    User,
  } from "@node-oauth/oauth2-server";
  export default class RefreshTokenGrantType extends AbstractGrantType {
    model: unknown;
    getRefreshToken(request: Request, client: Client): Promise<RefreshToken>;
    getScope(request: Request, token?: RefreshToken): string[];
    saveToken(user: User, client: Client, scope?: string[]): Promise<Token>;
  }
}
