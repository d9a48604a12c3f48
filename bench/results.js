// Reading a bench script's output for its SUMMARY; required (as ./bench/results.js, from the repository root) by the
// summaries of compare-bullmq-batch.sh, delivery-throughput.sh, delivery-lateness.sh and postgres-store.sh.
//   rows(file): one object per "RESULT" line: its key=value fields, `target` (a field of that name, else the first
//     word without "="), and `round` (the last "ROUND n" line before it, 0 when none).
//   median(values), span(values) "min–max", spread(values) "median [min–max]".
//   perRound(rows, f): f(rowsOfOneRound) for every round, in order.
//   together(rows): several wrk processes' bench/delivery.lua RESULTs as one: sum(field), and seconds from the
//     first request of any to the last ack of any.
const fs = require("fs");

function rows(file) {
  const out = [];
  let round = 0;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("ROUND ")) round = Number(line.split(" ")[1]);
    if (!line.startsWith("RESULT ")) continue;
    const words = line.split(" ").slice(1);
    const fields = Object.fromEntries(words.filter(w => w.includes("=")).map(w => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]));
    out.push({target: words.find(w => !w.includes("=")), ...fields, round});
  }
  return out;
}

const median = values => {
  const s = [...values].sort((x, y) => x - y), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const span = values => `${Math.min(...values)}–${Math.max(...values)}`;
const spread = values => `${+median(values).toFixed(2)} [${span(values)}]`;
const perRound = (all, f) => [...new Set(all.map(x => x.round))].sort((a, b) => a - b)
  .map(r => f(all.filter(x => x.round === r)));

const together = parts => ({
  sum: k => parts.reduce((a, x) => a + Number(x[k]), 0),
  seconds: (Math.max(...parts.map(x => Number(x.last_ms))) - Math.min(...parts.map(x => Number(x.first_ms)))) / 1000,
});

module.exports = {rows, median, span, spread, perRound, together};
