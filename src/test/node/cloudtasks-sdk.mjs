// CloudTasksSdkTest's Node side: the official @google-cloud/tasks SDK, unchanged, in its REST fallback mode.
// Usage: node cloudtasks-sdk.mjs <service port> <queue id> [live]
// Starts a target on 127.0.0.1 (200 for /ok, 500 for /flaky), creates the queue (3 attempts, 10 s minimum backoff)
// and two tasks due in a day, lists them, tries a second create of the first name, and prints one JSON line:
// {"clock", "scheduleTime", "listed": [...names], "duplicate": {"code", "message"}}. Then it prints one line per
// request the target receives ({"path", "body", "headers": {x-cloudtasks-*}}), and exits once it reads "exit" on stdin
// (or after 600 s, should the test have died).
// With "live" it creates the queue (2 attempts, 10 s backoff), prints {"ready": clock}, and then runs one command per
// stdin line, printing {"reply": command, ...} when done: "pause" and "resume" ({state}), "task <id> <path>" (a task due
// now), "update" (4 attempts 1 s apart, 7 concurrent, 20/s; then {updated, queue} as getQueue reads it), "age" (unlimited
// attempts, maxRetryDuration 3 s, 1 s apart; {queue}); the target answers 200 for /ok, 500 for any other path.
import http from "node:http";
import readline from "node:readline";
import { CloudTasksClient } from "@google-cloud/tasks";
import { PassThroughClient } from "google-auth-library";

const [port, queueId, mode] = process.argv.slice(2);
const fail = (error) => { console.log(JSON.stringify({ error: String(error && error.stack || error) })); process.exit(1); };

const target = http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => { body += chunk; });
  request.on("end", () => {
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.startsWith("x-cloudtasks-")));
    console.log(JSON.stringify({ path: request.url, method: request.method, body, contentType: request.headers["content-type"], headers }));
    response.writeHead(request.url === "/ok" ? 200 : 500).end();
  });
});

const client = new CloudTasksClient({ fallback: true, apiEndpoint: "127.0.0.1", port: Number(port),
  protocol: "http", authClient: new PassThroughClient() });
const queueName = client.queuePath("sdk-project", "us-central1", queueId);
const second = (seconds) => ({ seconds });
const commands = {
  pause: async () => ({ state: (await client.pauseQueue({ name: queueName }))[0].state }),
  resume: async () => ({ state: (await client.resumeQueue({ name: queueName }))[0].state }),
  task: async (id, path) => {
    await client.createTask({ parent: queueName, task: { name: client.taskPath("sdk-project", "us-central1", queueId, id),
      httpRequest: { url: `http://127.0.0.1:${target.address().port}${path}`, body: Buffer.from(id) } } });
    return {};
  },
  update: async () => {
    const [updated] = await client.updateQueue({ queue: { name: queueName,
      retryConfig: { maxAttempts: 4, minBackoff: second(1), maxBackoff: second(1) },
      rateLimits: { maxConcurrentDispatches: 7, maxDispatchesPerSecond: 20 } },
      updateMask: { paths: ["retry_config.max_attempts", "retry_config.min_backoff", "retry_config.max_backoff",
        "rate_limits.max_concurrent_dispatches", "rate_limits.max_dispatches_per_second"] } });
    return { updated: updated.retryConfig.maxAttempts, queue: (await client.getQueue({ name: queueName }))[0] };
  },
  age: async () => {
    await client.updateQueue({ queue: { name: queueName, retryConfig: { maxAttempts: -1,
      maxRetryDuration: second(3), minBackoff: second(1), maxBackoff: second(1) } },
      updateMask: { paths: ["retry_config"] } });
    return { queue: (await client.getQueue({ name: queueName }))[0] };
  },
};

const live = async () => {
  await client.createQueue({ parent: client.locationPath("sdk-project", "us-central1"), queue: { name: queueName,
    retryConfig: { maxAttempts: 2, minBackoff: second(10), maxBackoff: second(10) } } });
  console.log(JSON.stringify({ ready: `ct~sdk-project~us-central1~${queueId}` }));
};

let queued = Promise.resolve();
const run = (line) => {
  const [name, ...args] = line.trim().split(" ");
  queued = queued.then(async () => {
    const reply = await commands[name](...args);
    console.log(JSON.stringify({ reply: name, ...reply }));
  }).catch(fail);
};

target.listen(0, "127.0.0.1", async () => {
  if (mode === "live") {
    live().catch(fail);
    return;
  }
  try {
    const parent = client.locationPath("sdk-project", "us-central1");
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
  } else if (mode === "live") {
    run(line);
  }
});
setTimeout(() => fail("not told to exit within 600 s"), 600_000).unref(); // a guard against an orphan only: the test ends it
