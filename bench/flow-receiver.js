// Issue 44 item 5's push target: holds each POST for HOLD ms (default 10) before it answers 204, on 127.0.0.1, so that
// pushes stay in flight and a key's concurrency binds.
//   node flow-receiver.js <port> [holdMs=10] [hotKey=hot]
// Counts, since the last POST /reset?clock=<name> (pushes of other clocks are answered and not counted): the hot
// key's pushes and the most of them ever in flight at once here, and the other keys' first attempts with the time
// they arrived (Date.now(), whole ms). GET /stats?from=<epoch ms> answers
//   {"hot":n,"hotMostInFlight":n,"inFlightMost":n,"cold":n,"coldWait":{"p50":ms,"p99":ms,"max":ms}}
// where a cold push's wait is its arrival minus "from" (the moment its deliveries were all ready), 0 if before.
// GET /await?cold=n&from=<epoch ms> answers the same once n pushes of other keys have arrived (or after 120 s).
const http = require("http");
const port = Number(process.argv[2]);
const holdMs = Number(process.argv[3] || 10);
const hotKey = process.argv[4] || "hot";
let gen = 0, clock = null, hot = 0, hotInFlight = 0, hotMost = 0, inFlight = 0, inFlightMost = 0, waits = [], waiters = [];
function stats(res, url) {
  const from = Number((/from=(\d+)/.exec(url) || [0, 0])[1]);
  const sorted = waits.map(t => Math.max(0, t - from)).sort((a, b) => a - b);
  const q = p => sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] : null;
  res.writeHead(200, {"Content-Type": "application/json"});
  res.end(JSON.stringify({hot, hotMostInFlight: hotMost, inFlightMost, cold: sorted.length,
    coldWait: {p50: q(0.5), p99: q(0.99), max: sorted.length ? sorted[sorted.length - 1] : null}}));
}
http.createServer((req, res) => {
  if (req.method === "GET" && req.url.startsWith("/stats")) {
    stats(res, req.url);
    return;
  }
  if (req.method === "GET" && req.url.startsWith("/await")) {
    const n = Number((/cold=(\d+)/.exec(req.url) || [0, 0])[1]);
    if (waits.length >= n) { stats(res, req.url); return; }
    const waiter = {n, res, url: req.url,
      timer: setTimeout(() => { waiters = waiters.filter(w => w !== waiter); stats(res, req.url); }, 120000)};
    waiters.push(waiter);
    return;
  }
  if (req.method === "POST" && req.url.startsWith("/reset")) {
    clock = (/clock=([^&]+)/.exec(req.url) || [null, null])[1];
    gen++; hot = 0; hotInFlight = 0; hotMost = 0; inFlight = 0; inFlightMost = 0; waits = [];
    res.writeHead(204); res.end();
    return;
  }
  const chunks = [];
  req.on("data", c => chunks.push(c));
  req.on("end", () => {
    const now = Date.now();
    let body = null;
    try { body = JSON.parse(Buffer.concat(chunks).toString()); } catch (e) { body = null; }
    const counted = body !== null && body.clock === clock;
    const isHot = counted && body.key === hotKey, at = gen;
    if (counted) {
      inFlightMost = Math.max(inFlightMost, ++inFlight);
      if (isHot) {
        hot++;
        hotMost = Math.max(hotMost, ++hotInFlight);
      } else if (body.attempt === 1) {
        waits.push(now);
        if (waiters.length && waiters.some(w => waits.length >= w.n)) {
          const due = waiters.filter(w => waits.length >= w.n);
          waiters = waiters.filter(w => waits.length < w.n);
          for (const w of due) { clearTimeout(w.timer); stats(w.res, w.url); }
        }
      }
    }
    setTimeout(() => {
      if (counted && at === gen) {
        inFlight--;
        if (isHot) hotInFlight--;
      }
      res.writeHead(204); res.end();
    }, holdMs);
  });
}).listen(port, "127.0.0.1", () => console.log(`RECEIVER port=${port} hold=${holdMs}ms`));
