/**
 * Section 5 of issue 24: expected refusals (a signed-out caller, a 401, a 404) write nothing to the
 * logs and never read as INTERNAL_SERVER_ERROR; a real fault is logged once, with its stack, under
 * our request id and the caller's own id beside it. Through the real edges: the pages' caller, the
 * REST handlers and /api/trpc.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TRPCError } from "@trpc/server";
import { encode } from "next-auth/jwt";
import * as trpcRoute from "../../../app/api/trpc/[trpc]/route";
import { createPartner, createPerson } from "../../../prisma/factories";
import { operationHandler } from "../rest/rest-router";
import { allScopes } from "../../auth/scopes";
import { issueAccessToken } from "../../auth/tokens";
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { AppError } from "../../core/errors";
import { callRoute } from "../../testing/rest";
import { createCaller } from "./caller";
import { createInnerContext } from "../../platform/trpc/context";
import { captureLogs } from "../../platform/observability/log";

const logged: string[] = [];
const spies: { mockRestore: () => void }[] = [];
const render = (args: unknown[]) =>
  args
    .map((arg) =>
      arg instanceof Error
        ? `${arg.name} ${JSON.stringify({ code: (arg as { code?: string }).code })}\n${arg.stack}`
        : String(arg),
    )
    .join(" ");

/** A line of the service's logger (server/platform/observability/log.ts) in the same form: level, fields, then the stack as written. */
const renderLine = (line: string) => {
  const { level, err, ...fields } = JSON.parse(line) as {
    level: string;
    err?: { stack?: string };
  };
  return `${level}: ${JSON.stringify({ ...fields, err })}${err?.stack ? `\n${err.stack}` : ""}`;
};

beforeEach(() => {
  logged.length = 0;
  spies.push({ mockRestore: captureLogs((line) => void logged.push(renderLine(line))) });
  for (const level of ["error", "warn", "info", "log"] as const) {
    spies.push(
      vi
        .spyOn(console, level)
        .mockImplementation((...args: unknown[]) => void logged.push(`${level}: ${render(args)}`)),
    );
  }
});
afterEach(() => {
  for (const spy of spies.splice(0)) spy.mockRestore();
});

const expectQuietLogs = () => {
  const text = logged.join("\n");
  expect(text).not.toContain("INTERNAL_SERVER_ERROR");
  expect(text).not.toMatch(/\n\s+at /);
  expect(logged.filter((line) => line.startsWith("error:"))).toEqual([]);
};

describe("expected refusals are not faults", () => {
  it("a signed-out page's procedure is refused as UNAUTHORIZED (the table's code), and nothing is logged", async () => {
    const caller = createCaller(
      createInnerContext({ requestId: "req-page-1", actor: { kind: "anonymous" } }),
    );
    const failure = await caller.account.getMe().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TRPCError);
    expect((failure as TRPCError).code).toBe("UNAUTHORIZED");
    expect((failure as TRPCError).cause).toBeInstanceOf(AppError);
    expectQuietLogs();
  });

  it("REST 401 and 404 write nothing to the logs", async () => {
    const me = await callRoute(operationHandler("GET /api/v1/me"), { path: "/me" });
    expect(me.status).toBe(401);
    const partner = await createPartner({ scopes: [...allScopes] });
    const token = (
      await issueAccessToken(db(), {
        clientId: partner.client.id,
        scopes: allScopes,
        now: new Date(),
      })
    ).token;
    const missing = await callRoute(operationHandler("GET /api/v1/products/{id}"), {
      path: "/products/2147483000",
      token,
      params: { id: "2147483000" },
    });
    expect(missing.status).toBe(404);
    expectQuietLogs();
  });

  it("/api/trpc 401 writes nothing to the logs", async () => {
    const origin = new URL(env().PUBLIC_URL).origin;
    const response = await trpcRoute.GET(
      new Request(`${origin}/api/trpc/account.getSpendingSettings?input=%7B%7D`),
    );
    expect(response.status).toBe(401);
    expectQuietLogs();
  });
});

describe("a real fault", () => {
  it("is logged once with its stack under our request id, the caller's id beside it, and answered with that reference", async () => {
    const { person } = await createPerson();
    const caller = createCaller(
      createInnerContext({
        requestId: "req-fault-1",
        clientRequestId: "theirs-7",
        actor: { kind: "person", personId: person.id },
      }),
    );
    // The one fault injection the project uses for this (see trpc-endpoint.integration.test.ts): the write fails unexpectedly.
    const broken = vi.spyOn(db(), "$transaction").mockRejectedValueOnce(new Error("disk on fire"));
    const failure = await caller.account
      .setSpendingLimits({ limit_per_order: "500.00", limit_per_30_days: "2000.00" })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    broken.mockRestore();
    expect(failure).toBeInstanceOf(TRPCError);
    expect((failure as TRPCError).code).toBe("INTERNAL_SERVER_ERROR");
    expect((failure as TRPCError).message).toContain("req-fault-1");
    const errors = logged.filter((line) => line.startsWith("error:"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"msg":"unexpected error"');
    expect(errors[0]).toContain('"request_id":"req-fault-1"');
    expect(errors[0]).toContain('"client_request_id":"theirs-7"');
    expect(errors[0]).toContain("disk on fire");
    expect(errors[0]).toMatch(/\n\s+at /);
  });

  it("through /api/trpc, logged once (not again by the edge), the answer naming the reference", async () => {
    const { person } = await createPerson();
    const origin = new URL(env().PUBLIC_URL).origin;
    const cookie = `next-auth.session-token=${await encode({ token: { sub: person.id, authAt: Date.now() }, secret: env().APP_SECRET })}`;
    const broken = vi.spyOn(db(), "$transaction").mockRejectedValueOnce(new Error("disk on fire"));
    const response = await trpcRoute.POST(
      new Request(`${origin}/api/trpc/account.setSpendingLimits`, {
        method: "POST",
        headers: {
          cookie,
          origin,
          "content-type": "application/json",
          "x-request-id": "req-fault-2",
        },
        body: JSON.stringify({ limit_per_order: "500.00", limit_per_30_days: "2000.00" }),
      }),
    );
    broken.mockRestore();
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).toContain("req-fault-2");
    const errors = logged.filter((line) => line.startsWith("error:"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"msg":"unexpected error"');
    expect(errors[0]).toContain('"request_id":"req-fault-2"');
  });
});
