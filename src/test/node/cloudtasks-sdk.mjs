// CloudTasksSdkTest's Node side: the official @google-cloud/tasks SDK, unchanged, in its REST fallback mode.
// Usage: node cloudtasks-sdk.mjs <service port> <queue id>
// Starts a target on 127.0.0.1 (200 for /ok, 500 for /flaky), creates the queue (3 attempts, 10 s minimum backoff)
// and two tasks due in a day, lists them, tries a second create of the first name, and prints one JSON line:
// {"clock", "scheduleTime", "listed": [...names], "duplicate": {"code", "message"}}. Then it prints one line per
// request the target receives ({"path", "body", "headers": {x-cloudtasks-*}}), and exits once it reads "exit" on stdin
// (or after 600 s, should the test have died).
import http from "node:http";
import readline from "node:readline";
import { CloudTasksClient } from "@google-cloud/tasks";
import { PassThroughClient } from "google-auth-library";

const [port, queueId] = process.argv.slice(2);
const fail = (error) => { console.log(JSON.stringify({ error: String(error && error.stack || error) })); process.exit(1); };

const target = http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => { body += chunk; });
  request.on("end", () => {
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.startsWith("x-cloudtasks-")));
    console.log(JSON.stringify({ path: request.url, method: request.method, body, contentType: request.headers["content-type"], headers }));
    response.writeHead(request.url === "/flaky" ? 500 : 200).end();
  });
});

target.listen(0, "127.0.0.1", async () => {
  try {
    const client = new CloudTasksClient({ fallback: true, apiEndpoint: "127.0.0.1", port: Number(port),
      protocol: "http", authClient: new PassThroughClient() });
    const parent = client.locationPath("sdk-project", "us-central1");
    const queueName = client.queuePath("sdk-project", "us-central1", queueId);
    await client.createQueue({ parent, queue: { name: queueName,
      retryConfig: { maxAttempts: 3, minBackoff: { seconds: 10 }, maxBackoff: { seconds: 60 } } } });
    const scheduleTime = { seconds: Math.floor(Date.now() / 1000) + 86400 };
    const base = `http://127.0.0.1:${target.address().port}`;
    const task = (name, path) => ({ name: client.taskPath("sdk-project", "us-central1", queueId, name), scheduleTime,
      httpRequest: { url: base + path, httpMethod: "POST", headers: { "Content-Type": "application/json" },
        body: Buffer.from(JSON.stringify({ task: name })) } });
    await client.createTask({ parent: queueName, task: task("node-ok", "/ok") });
    await client.createTask({ parent: queueName, task: task("node-flaky", "/flaky") });
    const [tasks] = await client.listTasks({ parent: queueName });
    let duplicate = null;
    try {
      await client.createTask({ parent: queueName, task: task("node-ok", "/ok") });
    } catch (error) {
      duplicate = { code: error.code, message: error.message };
    }
    console.log(JSON.stringify({ clock: `ct~sdk-project~us-central1~${queueId}`, listed: tasks.map((t) => t.name),
      scheduleTime: tasks[0] && tasks[0].scheduleTime, duplicate }));
  } catch (error) {
    fail(error);
  }
});
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "exit") {
    target.close();
    process.exit(0);
  }
});
setTimeout(() => fail("not told to exit within 600 s"), 600_000).unref(); // a guard against an orphan only: the test ends it
