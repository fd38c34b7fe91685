/** How a standing order reads its purchase's failure: in flight elsewhere, refused (nothing bought), or a fault to retry. */
import { describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { AppError } from "../core/errors";
import { captureLogLines } from "../testing/log-capture";
import { standingOrderFailure } from "./standing-order-failure";

describe("standingOrderFailure", () => {
  it("another run of the key is in flight; a 4xx refusal bought nothing", () => {
    expect(standingOrderFailure(new AppError("idempotency_key_in_use"))).toEqual({
      kind: "in_flight",
    });
    for (const code of [
      "item_unavailable",
      "quote_expired",
      "over_spending_limit",
      "no_saved_card",
    ] as const)
      expect(standingOrderFailure(new AppError(code))).toEqual({
        kind: "refused",
        code,
      });
  });

  it("a request that did not parse, the database away or an unknown error is a fault (the event is retried), logged once by whoever handles it, not here", () => {
    const logs = captureLogLines();
    const parseError = z.object({ quote_id: z.string() }).safeParse({}).error;
    expect(standingOrderFailure(parseError)).toEqual({ kind: "fault" });
    expect(standingOrderFailure(new AppError("unavailable", { retryAfter: 5 }))).toEqual({
      kind: "fault",
    });
    expect(standingOrderFailure(new Error("boom"))).toEqual({ kind: "fault" });
    expect(
      standingOrderFailure(
        new TRPCError({ code: "CONFLICT", cause: new AppError("item_unavailable") }),
      ),
    ).toEqual({
      kind: "refused",
      code: "item_unavailable",
    });
    expect(logs.lines).toEqual([]);
  });
});
