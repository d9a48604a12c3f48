// Where the Node.js bench clients send their load; required by compare.js, compare-batch.js, delivery-feed.js and
// bullmq-drain.js (each script copies it beside them).
//   httpCaller("p" or "p1,p2", inFlight): call(method, path, body) to TimeService on 127.0.0.1, round-robin over the
//     listed instances (one keep-alive agent each), resolving on 2xx and rejecting with the status and body otherwise.
//   bullmqOptions(port): BullMQ's connection and key prefix, from REDIS_DB (default 0) and BULLMQ_PREFIX (default
//     BullMQ's own "bull"), so a run on a shared Redis keeps to a database and prefix of its own.
const http = require("http");

function httpCaller(ports, inFlight) {
  const targets = String(ports).split(",").map(p => ({port: Number(p), agent: new http.Agent({keepAlive: true, maxSockets: inFlight})}));
  let turn = 0;
  return (method, path, body) => new Promise((resolve, reject) => {
    const {port, agent} = targets[turn++ % targets.length];
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({host: "127.0.0.1", port, path, method, agent,
      headers: data ? {"Content-Type": "application/json", "Content-Length": Buffer.byteLength(data)} : {}}, res => {
      let text = "";
      res.on("data", c => { if (res.statusCode >= 300) text += c; });
      res.on("end", () => res.statusCode < 300 ? resolve()
        : reject(new Error(`${method} ${path} on ${port} answered ${res.statusCode} ${text}`)));
    });
    req.on("error", reject);
    req.end(data);
  });
}

function bullmqOptions(port) {
  return {connection: {host: "127.0.0.1", port: Number(port), db: Number(process.env.REDIS_DB || 0)},
    prefix: process.env.BULLMQ_PREFIX || "bull"};
}

module.exports = {httpCaller, bullmqOptions};
