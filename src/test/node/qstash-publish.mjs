// QStashSdkTest's Node side: the official @upstash/qstash SDK, unchanged, against TimeService.
// Usage: node qstash-publish.mjs <service base URL> <current signing key> <next signing key>
// Starts a receiver on 127.0.0.1, publishes to it with the SDK's Client (a 10 s delay), prints
// {"messageId", "destination"} as one line, then waits for the message (the test advances the virtual clock),
// verifies it with the SDK's Receiver and prints {"verified": true, "body", "tenant", "contentType"}; exits 1 on failure.
import http from "node:http";
import { Client, Receiver } from "@upstash/qstash";

const [baseUrl, currentSigningKey, nextSigningKey] = process.argv.slice(2);
const fail = (error) => { console.log(JSON.stringify({ error: String(error) })); process.exit(1); };

const server = http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => { body += chunk; });
  request.on("end", async () => {
    try {
      const destination = `http://127.0.0.1:${server.address().port}/hook`;
      const verified = await new Receiver({ currentSigningKey, nextSigningKey }).verify({
        signature: request.headers["upstash-signature"], body, url: destination });
      response.writeHead(200).end();
      console.log(JSON.stringify({ verified, body, method: request.method, tenant: request.headers["x-tenant"],
        contentType: request.headers["content-type"] }));
      server.close();
      process.exit(0);
    } catch (error) {
      response.writeHead(500).end();
      fail(error);
    }
  });
});

server.listen(0, "127.0.0.1", async () => {
  try {
    const destination = `http://127.0.0.1:${server.address().port}/hook`;
    const client = new Client({ baseUrl, token: "timeservice-write-token", retry: false });
    const published = await client.publishJSON({ url: destination, body: { hello: "world" }, delay: "10s",
      headers: { "X-Tenant": "acme" } });
    console.log(JSON.stringify({ messageId: published.messageId, destination }));
  } catch (error) {
    fail(error);
  }
});
setTimeout(() => fail("no message within 60 s"), 60_000).unref();
