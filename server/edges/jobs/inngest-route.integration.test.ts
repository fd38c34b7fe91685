/**
 * app/api/inngest: served only where Inngest is configured; elsewhere (the embedded default, the
 * sweep doing timed work) a 404 like any unknown path, not the SDK's 500 asking for a signing key.
 */
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { GET, POST, PUT } from "@/app/api/inngest/route";
import { functions } from "./functions";

const url = "http://localhost:3000/api/inngest";
const saved = { ...process.env };
afterEach(() => {
  for (const name of [
    "INNGEST_DEV",
    "INNGEST_EVENT_KEY",
    "INNGEST_SIGNING_KEY",
    "INNGEST_BASE_URL",
  ])
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
});

describe("/api/inngest", () => {
  it("without Inngest configured: 404 with the service's error body, for every method and any body", async () => {
    for (const name of [
      "INNGEST_DEV",
      "INNGEST_EVENT_KEY",
      "INNGEST_SIGNING_KEY",
      "INNGEST_BASE_URL",
    ])
      delete process.env[name];
    for (const answer of [
      await GET(new NextRequest(url), undefined),
      await PUT(new NextRequest(url, { method: "PUT", body: "zz" }), undefined),
      await POST(new NextRequest(`${url}?fnId=x`, { method: "POST", body: "{}" }), undefined),
    ]) {
      expect(answer.status).toBe(404);
      expect((await answer.json()).error).toMatchObject({ code: "not_found" });
    }
  });

  it("with an Inngest dev server configured, the SDK serves the functions", async () => {
    process.env.INNGEST_DEV = "1";
    const answer = await GET(new NextRequest(url), undefined);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ function_count: functions.length });
  });
});
