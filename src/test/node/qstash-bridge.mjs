// QStashSdkTest's Node side: the official @upstash/qstash SDK, unchanged, driven line by line by the Java test.
// Usage: node qstash-bridge.mjs <service base URL> <current signing key> <next signing key>
// Starts a loopback receiver (127.0.0.1, a random port) and prints {"receiver": "<base URL>"} as its first line.
// Then reads one JSON command a line from stdin, {"call": "schedules.create", "args": [...]}, runs it on the SDK's
// Client and prints {"result": ...} or {"error": "...", "status": n}. Two calls are the receiver's own:
// "receiver.answer" [status] sets what it answers from now on; "receiver.arrivals" lists what arrived, each with its
// method, path, headers, body and whether the SDK's Receiver verified its Upstash-Signature holding the service's
// key as its current one (verifiedCurrent) and as its next one (verifiedNext: a receiver whose current key is
// another). Exits when stdin ends or after 5 minutes.
import http from "node:http";
import readline from "node:readline";
import { Client, Receiver } from "@upstash/qstash";

const [baseUrl, currentSigningKey, nextSigningKey] = process.argv.slice(2);
const client = new Client({ baseUrl, token: "timeservice-write-token", retry: false });
const asCurrent = new Receiver({ currentSigningKey, nextSigningKey });
const asNext = new Receiver({ currentSigningKey: "sig_another_key", nextSigningKey: currentSigningKey });
const arrivals = [];
let answer = 200;

const verifies = async (receiver, signature, body, url) => {
  try {
    return await receiver.verify({ signature, body, url });
  } catch {
    return false;
  }
};

const server = http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => { body += chunk; });
  request.on("end", async () => {
    const url = `http://127.0.0.1:${server.address().port}${request.url}`;
    const signature = request.headers["upstash-signature"];
    arrivals.push({ method: request.method, path: request.url, headers: request.headers, body,
      verifiedCurrent: await verifies(asCurrent, signature, body, url),
      verifiedNext: await verifies(asNext, signature, body, url) });
    response.writeHead(answer).end();
  });
});

const run = async ({ call, args = [] }) => {
  if (call === "receiver.answer") {
    answer = args[0];
    return answer;
  }
  if (call === "receiver.arrivals") {
    return arrivals;
  }
  const [first, second] = call.split(".");
  const target = second === undefined ? client : client[first];
  const method = second === undefined ? first : second;
  return await target[method](...args);
};

server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ receiver: `http://127.0.0.1:${server.address().port}` }));
  const lines = readline.createInterface({ input: process.stdin });
  lines.on("line", async (line) => {
    try {
      const result = await run(JSON.parse(line));
      console.log(JSON.stringify({ result: result === undefined ? null : result }));
    } catch (error) {
      console.log(JSON.stringify({ error: String(error.message ?? error), status: error.status ?? null }));
    }
  });
  lines.on("close", () => process.exit(0));
});
setTimeout(() => process.exit(2), 300_000).unref();
