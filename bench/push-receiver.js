// Issue 32's push target for the benchmarks: answers 204 to every POST at once, on 127.0.0.1.
//   node push-receiver.js <port>
// Counts pushes since the last POST /reset, with the receive time of the first and the last, and, for first attempts
// on a system clock, the lateness: receive time minus the body's fireTime (Date.now(), whole ms). GET /stats answers
//   {"count":n,"firstMs":t,"lastMs":t,"lateness":{"count":n,"p50":ms,"p99":ms,"max":ms}}
// counting only pushes whose fireTime is at or after the reset's "from" (?from=<epoch ms>, default 0).
const http = require("http");
const port = Number(process.argv[2]);
let count = 0, firstMs = 0, lastMs = 0, from = 0, late = [];
http.createServer((req, res) => {
  if (req.method === "GET" && req.url.startsWith("/stats")) {
    const sorted = late.slice().sort((a, b) => a - b);
    const q = p => sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] : null;
    res.writeHead(200, {"Content-Type": "application/json"});
    res.end(JSON.stringify({count, firstMs, lastMs, lateness: {count: sorted.length, p50: q(0.5), p99: q(0.99),
      max: sorted.length ? sorted[sorted.length - 1] : null}}));
    return;
  }
  if (req.method === "POST" && req.url.startsWith("/reset")) {
    const m = /from=(\d+)/.exec(req.url);
    count = 0; firstMs = 0; lastMs = 0; late = []; from = m ? Number(m[1]) : 0;
    res.writeHead(204); res.end();
    return;
  }
  const chunks = [];
  req.on("data", c => chunks.push(c));
  req.on("end", () => {
    const now = Date.now();
    if (req.headers["webhook-id"]) {
      count++;
      if (!firstMs) firstMs = now;
      lastMs = now;
      const body = Buffer.concat(chunks).toString();
      const fire = /"fireTime":(\d+)/.exec(body), attempt = /"attempt":(\d+)/.exec(body);
      if (fire && attempt && attempt[1] === "1" && Number(fire[1]) >= from && Number(fire[1]) > 1e12) {
        late.push(now - Number(fire[1]));
      }
    }
    res.writeHead(204); res.end();
  });
}).listen(port, "127.0.0.1", () => console.log(`RECEIVER port=${port}`));
