/**
 * Playwright's web server: `npm start` on a fresh local database (refusing a non-local server),
 * seeded with a small sandbox catalogue. Writes e2e/.state.json so fixtures can run the ops CLI on
 * the same database. The database is dropped when Playwright stops the server.
 *
 * With E2E_PROCESSOR=stripe (the `stripe` project's server, on E2E_PORT+100) the service runs as
 * in production, with the Stripe processor (test keys), against a Stripe-shaped server started
 * here (server/testing/stripe-shaped-server.ts); its state goes to e2e/.state.stripe.json with
 * `stripeApiBase`, where the specs' Stripe.js stand-in sends its requests.
 */
import { execFileSync, spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { databaseUrl, withAdmin } from "../server/testing/databases";
import { startStripeShapedServer } from "../server/testing/stripe-shaped-server";
import { startMailCapture } from "./mail-capture";

const root = path.resolve(__dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3210);
const name = `shopping_e2e_${process.pid}_${Date.now()}`;
const isStripe = process.env.E2E_PROCESSOR === "stripe";
const statePath = path.join(__dirname, isStripe ? ".state.stripe.json" : ".state.json");
/** The service's stdout and stderr, also written here, so a spec can read what the service logged. */
const logPath = path.join(__dirname, isStripe ? ".server.stripe.log" : ".server.log");

/**
 * A throwaway certificate for 127.0.0.1: specs serve client ID metadata documents over https with
 * it, and the service trusts it (NODE_EXTRA_CA_CERTS) under the CLIENT_METADATA_LOOPBACK allowance.
 */
const loopbackCertificate = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "e2e-tls-"));
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  return { dir, key, cert };
};

const main = async () => {
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = databaseUrl(name);
  const baseUrl = `http://127.0.0.1:${port}`;
  // A real SMTP server receives the service's email; specs read it over HTTP (E2E_SMTP_CAPTURE=0 turns it off).
  const mail = process.env.E2E_SMTP_CAPTURE === "0" ? undefined : await startMailCapture();
  const tls = loopbackCertificate();
  const stripe = isStripe ? await startStripeShapedServer() : undefined;
  const stripeEnv = stripe
    ? {
        PAYMENT_PROCESSOR: "stripe",
        STRIPE_SECRET_KEY: "sk_test_e2e",
        STRIPE_PUBLISHABLE_KEY: "pk_test_e2e",
        STRIPE_API_BASE: stripe.url,
      }
    : {};
  writeFileSync(
    statePath,
    JSON.stringify({
      databaseUrl: url,
      baseUrl,
      serverLogPath: logPath,
      mailCaptureUrl: mail?.httpUrl,
      loopbackTls: { key: tls.key, cert: tls.cert },
      stripeApiBase: stripe?.url,
    }),
  );
  const child = spawn(
    process.execPath,
    [
      path.join(root, "node_modules", "tsx", "dist", "cli.mjs"),
      path.join(root, "server", "start.ts"),
    ],
    {
      cwd: root,
      stdio: ["inherit", "pipe", "pipe"],
      env: {
        ...process.env,
        DATABASE_URL: url,
        PORT: String(port),
        PUBLIC_URL: baseUrl,
        SEED_ITEMS: "1500",
        RATE_LIMIT_PREFIX: `e2e:${name}`,
        CLIENT_METADATA_LOOPBACK: "on",
        SHUTDOWN_DRAIN_MS: "0",
        NODE_EXTRA_CA_CERTS: tls.cert,
        ...(mail ? { SMTP_URL: mail.smtpUrl } : {}),
        ...stripeEnv,
      },
    },
  );
  const log = createWriteStream(logPath);
  // The file gets every line; the test report only the service's warnings, errors and plain lines
  // (one info line a request would bury it).
  const isRoutine = (line: string) => /^\{"level":"(?:trace|debug|info)"/.test(line);
  child.stdout?.on("data", (chunk: Buffer) => log.write(chunk));
  if (child.stdout)
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (!isRoutine(line)) process.stdout.write(`${line}\n`);
    });
  child.stderr?.on("data", (chunk: Buffer) => (process.stderr.write(chunk), log.write(chunk)));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    child.kill("SIGTERM");
    await mail?.stop();
    await stripe?.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch(
      () => undefined,
    );
    rmSync(statePath, { force: true });
    log.end();
    rmSync(logPath, { force: true });
    rmSync(tls.dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  child.on("exit", (code) => {
    if (!stopping) {
      console.error(`npm start exited with ${code}`);
      void stop();
    }
  });
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
