/**
 * For e2e runs: the SMTP capture of the integration tests (server/testing/smtp-capture.ts) plus a
 * tiny HTTP endpoint on 127.0.0.1 that lists what it received (`GET /messages?to=address`), so
 * Playwright specs can find the email the running service really sent over SMTP.
 */
import { createServer } from "node:http";
import { startSmtpCapture } from "../server/testing/smtp-capture";

export const startMailCapture = async () => {
  const smtp = await startSmtpCapture();
  const http = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const to = url.searchParams.get("to");
    const messages = smtp.messages.filter((message) => !to || message.to.includes(to));
    response.writeHead(url.pathname === "/messages" ? 200 : 404, {
      "Content-Type": "application/json",
    });
    response.end(JSON.stringify(url.pathname === "/messages" ? messages : { error: "not found" }));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as { port: number };
  return {
    smtpUrl: smtp.url,
    httpUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      http.close();
      await smtp.stop();
    },
  };
};
