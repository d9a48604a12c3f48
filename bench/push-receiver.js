// Issue 32's push target for the benchmarks: answers 204 to every POST at once, on 127.0.0.1.
//   node push-receiver.js <port>
// Counts pushes since the last POST /reset, with the receive time of the first and the last, and, for first attempts
// on a system clock, the lateness: receive time minus the body's fireTime (Date.now(), whole ms). GET /stats answers
//   {"count":n,"firstMs":t,"lastMs":t,"lateness":{"count":n,"p50":ms,"p99":ms,"max":ms}}
// counting only pushes whose fireTime is at or after the reset's "from" (?from=<epoch ms>, default 0).
// GET /await?count=n answers the same once n pushes have arrived (or after 120 s): the benchmark waits for a drain's
// end in one request instead of polling, which would take CPU from the service it measures.
const http = require("http");
const port = Number(process.argv[2]);
let count = 0, firstMs = 0, lastMs = 0, from = 0, late = [], waiters = [];
function stats(res) {
  const sorted = late.slice().sort((a, b) => a - b);
  const q = p => sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] : null;
  res.writeHead(200, {"Content-Type": "application/json"});
  res.end(JSON.stringify({count, firstMs, lastMs, lateness: {count: sorted.length, p50: q(0.5), p99: q(0.99),
    max: sorted.length ? sorted[sorted.length - 1] : null}}));
}
http.createServer((req, res) => {
  if (req.method === "GET" && req.url.startsWith("/stats")) {
    stats(res);
    return;
  }
  if (req.method === "GET" && req.url.startsWith("/await")) {
    const n = Number((/count=(\d+)/.exec(req.url) || [0, 0])[1]);
    if (count >= n) { stats(res); return; }
    const waiter = {n, res, timer: setTimeout(() => { waiters = waiters.filter(w => w !== waiter); stats(res); }, 120000)};
    waiters.push(waiter);
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
      if (waiters.length && waiters.some(w => count >= w.n)) {
        const due = waiters.filter(w => count >= w.n);
        waiters = waiters.filter(w => count < w.n);
        for (const w of due) { clearTimeout(w.timer); stats(w.res); }
      }
      const body = Buffer.concat(chunks).toString();
      const fire = /"fireTime":(\d+)/.exec(body), attempt = /"attempt":(\d+)/.exec(body);
      if (fire && attempt && attempt[1] === "1" && Number(fire[1]) >= from && Number(fire[1]) > 1e12) {
        late.push(now - Number(fire[1]));
      }
    }
    res.writeHead(204); res.end();
  });
}).listen(port, "127.0.0.1", () => console.log(`RECEIVER port=${port}`));
