/**
 * A separate service process for crash tests (a test SIGKILLs it at a chosen point):
 * `buy TOKEN QUOTE_ID KEY` calls POST /purchases through the real route handler and prints the
 * answer; `evaluate` processes the pending price-change events once, as the sweep's task does
 * (price watches buy there); `restart ISO_TIME` is the process after a restart: the due-work sweep
 * runs every task once at that time (as `npm start` would without an Inngest server), then exits.
 */
import { db } from "../platform/db";
import { startSweep } from "../edges/jobs/sweep";
import { processPriceChanges } from "../price-changes/process-price-changes";
import { callRoute } from "./rest";
import { operationHandler } from "@/server/edges/rest/rest-router";

const postPurchase = operationHandler("POST /api/v1/purchases");

const main = async () => {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === "buy") {
    const [token, quoteId, key] = args;
    const response = await callRoute(postPurchase, {
      path: "/purchases",
      token,
      body: { quote_id: quoteId },
      headers: { "Idempotency-Key": key },
    });
    console.log(JSON.stringify({ status: response.status, body: await response.json() }));
    return;
  }
  if (mode === "evaluate") {
    await processPriceChanges(db(), { now: () => new Date() });
    console.log("evaluated");
    return;
  }
  if (mode === "restart") {
    const sweep = startSweep({ clock: { now: () => new Date(args[0]) } });
    await sweep.tick();
    await sweep.stop();
    console.log("swept");
    return;
  }
  throw new Error(`unknown mode ${mode}`);
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
