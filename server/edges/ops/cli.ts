/**
 * `npm run ops -- <command>`: operates the service on its database (works while `npm start` runs,
 * embedded database included). Add --json for one JSON object on stdout.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { seedCatalog } from "../../../prisma/seed/catalog";
import { resetEnv } from "../../platform/env";
import { resolveDatabaseUrl } from "./database-url";
import { migrate } from "./migrate";
import { createClient, revokeClient, setClient, setStore } from "./commands";
import * as accounts from "./account-commands";
import { listMail, showMail } from "./mail-commands";
import { listCaptureFailures } from "./payment-commands";
import {
  createSandboxPurchase,
  makeSandboxPurchaseDue,
  markSandboxItemSold,
} from "./purchase-commands";
import { connectStore, printStatement, setStoreFee, statementTable } from "./store-commands";
import {
  cancelOrderCommand,
  listRefundsSentBackCommand,
  refundOrderCommand,
  refundPurchaseCommand,
  sendBackSandboxRefund,
} from "./refund-commands";
import { reconcileReportCommand } from "./reconcile-commands";
import { closeSandboxDispute, listDisputedOrders, openSandboxDispute } from "./dispute-commands";
import { setItemPriceCommand } from "./item-commands";
import { deprecateCommand, listCommand, restoreCommand } from "./endpoint-commands";
import { sendLogsToStderr } from "../../platform/observability/log";

// The commands' answers are stdout (`--json` is read by scripts); the service's log lines go to stderr.
sendLogsToStderr();

const usage = `usage: npm run ops -- <command> [options] [--json]
  db:migrate                                   apply pending migrations
  catalog:seed --items N --stores M --seed S   load the sandbox catalogue (only into an empty catalogue)
  client:create --name N --scopes "a b" [--redirect-uri URI]... [--linking] [--contact EMAIL]
  client:revoke CLIENT_ID                      revoke a client and every token at once
  client:set CLIENT_ID --purchases on|off      switch assistant purchases (POST /purchases) for one agent
  store:set SLUG --agent-checkout direct|link
  store:connect SLUG --stripe-account acct_... | --disconnect
                                               connect a store to its processor account (a store sells only when connected)
  store:fee SLUG --percent 12.5                 the platform's fee on the store's items (default 0)
  store:statement SLUG --from YYYY-MM-DD --to YYYY-MM-DD [--csv]
                                               what the store is owed from payments captured in [from, to)
  order:refund ORDER_NUMBER [--amount 12.34] --reason R
                                               refund a store order, in full or in part (the person is emailed)
  purchase:refund PUR_ID [--amount 12.34] --reason R
                                               refund an assistant purchase (refunded once all of it is)
  order:cancel ORDER_NUMBER --reason R          the store cannot ship it: cancelled and refunded in full
  order:list --disputed                        open disputes: orders, stores, amounts held back, evidence due dates
  order:list --refund-sent-back                refunds the bank sent back (a closed card): each person is owed one
  sandbox:dispute ORDER_NUMBER [--amount 12.34] [--reason R]
                                               sandbox only: the cardholder disputes the order's payment
  sandbox:dispute-close SBDP_ID --outcome won|lost
                                               sandbox only: the bank decides the dispute
  sandbox:refund-sent-back REFUND_ID [--reason expired_or_canceled_card|lost_or_stolen_card|unknown]
                                               sandbox only: the bank sends back a refund that had succeeded
  reconcile:report --date YYYY-MM-DD [--run]   the day's reconciliation with the processor (--run: reconcile it now)
  item:set-price ITEM_ID --price 12.34          change an item's price (price watches and alerts act on it)
  person:create --email E --password P [--verified] [--name N] [--sizes "M,8"] [--address-json '{...}']
                [--limit-per-order 500.00 --limit-per-30-days 2000.00] [--paused] [--card 4242424242424242]
                [--language en|fr]
  purchase:create-sandbox --email E [--item ITEM_ID] [--name ASSISTANT]
                                               sandbox only: a held assistant purchase with the person's saved card
  sandbox:purchase-due PUR_ID                  sandbox only: a held purchase's charge time comes now and it is charged (or cancelled)
  sandbox:item-sold ITEM_ID                    sandbox only: the store sold the item elsewhere (a held purchase of it is cancelled at its charge)
  client:list [--kind partner|agent]            list clients (never their secrets)
  application:list [--status pending|approved|rejected]
  application:approve APPLICATION_ID           approve a developer-portal application (creates its client)
  application:reject APPLICATION_ID
  agent:registration-token [--uses N] [--days D] [--note T]   initial access token for /oauth/register/agent
  mail:list [--to EMAIL]                       the newest emails the service wrote (any address)
  mail:show EMAIL_ID                           one email: subject, text (with its links; tokens redacted once sent outside the sandbox) and HTML
  payment:capture-failed                       payments whose capture failed (orders or purchases with no money behind them)
  endpoint:deprecate "GET /api/v1/path" --sunset DATE --replacement URL [--brownout START/END]...
                                               deprecate an operation (headers, 410 from the sunset and in brownouts; emails its recent callers)
  endpoint:restore "GET /api/v1/path"         take a deprecation back
  endpoint:list                                deprecated operations and their state now`;

const main = async () => {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      item: { type: "string" },
      items: { type: "string" },
      stores: { type: "string" },
      seed: { type: "string" },
      name: { type: "string" },
      scopes: { type: "string" },
      "redirect-uri": { type: "string", multiple: true },
      linking: { type: "boolean", default: false },
      "agent-checkout": { type: "string" },
      "stripe-account": { type: "string" },
      disconnect: { type: "boolean", default: false },
      percent: { type: "string" },
      amount: { type: "string" },
      date: { type: "string" },
      disputed: { type: "boolean", default: false },
      "refund-sent-back": { type: "boolean", default: false },
      outcome: { type: "string" },
      run: { type: "boolean", default: false },
      reason: { type: "string" },
      from: { type: "string" },
      csv: { type: "boolean", default: false },
      email: { type: "string" },
      password: { type: "string" },
      verified: { type: "boolean", default: false },
      sizes: { type: "string" },
      "address-json": { type: "string" },
      kind: { type: "string" },
      status: { type: "string" },
      uses: { type: "string" },
      days: { type: "string" },
      note: { type: "string" },
      to: { type: "string" },
      "limit-per-order": { type: "string" },
      "limit-per-30-days": { type: "string" },
      paused: { type: "boolean", default: false },
      card: { type: "string" },
      language: { type: "string" },
      purchases: { type: "string" },
      price: { type: "string" },
      contact: { type: "string" },
      sunset: { type: "string" },
      replacement: { type: "string" },
      brownout: { type: "string", multiple: true },
    },
  });
  const database = await resolveDatabaseUrl();
  process.env.DATABASE_URL = database.url;
  resetEnv();
  const print = (result: Record<string, unknown>) =>
    console.log(
      values.json
        ? JSON.stringify(result)
        : Object.entries(result)
            .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
            .join("\n"),
    );
  try {
    switch (command) {
      case "db:migrate":
        return print({ applied: await migrate(database.url) });
      case "catalog:seed": {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          const result = await seedCatalog(client, {
            items: Number(values.items ?? 5000),
            stores: Number(values.stores ?? 12),
            seed: Number(values.seed ?? 1),
            log: values.json ? undefined : console.log,
          });
          return print(result);
        } finally {
          await client.end();
        }
      }
      case "client:create":
        return print(
          await createClient({
            name: values.name,
            scopes: values.scopes,
            redirectUris: values["redirect-uri"] ?? [],
            linking: values.linking,
            contact: values.contact,
          }),
        );
      case "client:revoke":
        return print(await revokeClient(positionals[0]));
      case "client:set":
        return print(await setClient(positionals[0], { purchases: values.purchases }));
      case "store:set":
        return print(await setStore(positionals[0], { agentCheckout: values["agent-checkout"] }));
      case "store:connect":
        return print(
          await connectStore(positionals[0], {
            stripeAccount: values["stripe-account"],
            disconnect: values.disconnect,
          }),
        );
      case "store:fee":
        return print(await setStoreFee(positionals[0], { percent: values.percent }));
      case "store:statement": {
        const statement = await printStatement(positionals[0], {
          from: values.from,
          to: values.to,
          csv: values.csv,
        });
        if (statement.csv !== undefined) return void process.stdout.write(statement.csv);
        if (values.json) return print(statement);
        return console.log(
          `${statement.store}: ${statement.from} to ${statement.to}, platform fee ${statement.platform_fee_percent}%\n${statementTable(statement.lines)}`,
        );
      }
      case "order:refund":
        return print(
          await refundOrderCommand(positionals[0], {
            amount: values.amount,
            reason: values.reason,
          }),
        );
      case "purchase:refund":
        return print(
          await refundPurchaseCommand(positionals[0], {
            amount: values.amount,
            reason: values.reason,
          }),
        );
      case "order:cancel":
        return print(await cancelOrderCommand(positionals[0], { reason: values.reason }));
      case "order:list":
        if (values["refund-sent-back"]) return print(await listRefundsSentBackCommand());
        if (!values.disputed)
          throw new Error("usage: order:list --disputed, or order:list --refund-sent-back");
        return print(await listDisputedOrders());
      case "sandbox:dispute":
        return print(
          await openSandboxDispute(positionals[0], {
            amount: values.amount,
            reason: values.reason,
          }),
        );
      case "sandbox:dispute-close":
        return print(await closeSandboxDispute(positionals[0], { outcome: values.outcome }));
      case "sandbox:refund-sent-back":
        return print(await sendBackSandboxRefund(positionals[0], { reason: values.reason }));
      case "reconcile:report":
        return print(await reconcileReportCommand({ date: values.date, run: values.run }));
      case "item:set-price":
        return print(await setItemPriceCommand(positionals[0], { price: values.price }));
      case "person:create":
        return print(
          await accounts.createPerson({
            email: values.email,
            password: values.password,
            verified: values.verified,
            name: values.name,
            sizes: values.sizes,
            "address-json": values["address-json"],
            "limit-per-order": values["limit-per-order"],
            "limit-per-30-days": values["limit-per-30-days"],
            paused: values.paused,
            card: values.card,
            language: values.language,
          }),
        );
      case "purchase:create-sandbox":
        return print(
          await createSandboxPurchase({
            email: values.email,
            item: values.item,
            assistant: values.name,
          }),
        );
      case "sandbox:purchase-due":
        return print(await makeSandboxPurchaseDue(positionals[0]));
      case "sandbox:item-sold":
        return print(await markSandboxItemSold(positionals[0]));
      case "client:list":
        return print(await accounts.listClients(values.kind));
      case "application:list":
        return print(await accounts.listApplications(values.status));
      case "application:approve":
        return print(await accounts.approveApplicationCommand(positionals[0]));
      case "application:reject":
        return print(await accounts.rejectApplicationCommand(positionals[0]));
      case "agent:registration-token":
        return print(
          await accounts.createRegistrationToken({
            uses: values.uses,
            days: values.days,
            note: values.note,
          }),
        );
      case "mail:list":
        return print(await listMail(values.to));
      case "mail:show":
        return print(await showMail(positionals[0]));
      case "payment:capture-failed":
        return print(await listCaptureFailures());
      case "endpoint:deprecate":
        return print(
          await deprecateCommand(positionals[0], {
            sunset: values.sunset,
            replacement: values.replacement,
            brownout: values.brownout,
          }),
        );
      case "endpoint:restore":
        return print(await restoreCommand(positionals[0]));
      case "endpoint:list":
        return print(await listCommand());
      default:
        console.error(usage);
        process.exitCode = 2;
    }
  } finally {
    await database.stop();
  }
};

main()
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
