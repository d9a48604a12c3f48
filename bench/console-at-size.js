// The console's server calls at size (issue 45 item 4), against a running service (memory store): loads 10,000 clocks,
// a clock "big" with 1,000,000 pending timers and 100,000 dead letters, then times each call a console page makes,
// RUNS times each (median, min, max in ms, one client, sequential). Run by bench/console-at-size.sh.
import { execSync } from 'node:child_process';

const base = process.env.URL ?? 'http://127.0.0.1:18094';
const RUNS = Number(process.env.RUNS ?? 7);
const CLOCKS = Number(process.env.CLOCKS ?? 10000);
const TIMERS = Number(process.env.TIMERS ?? 1000000);
const DEAD = Number(process.env.DEAD ?? 100000);

async function call(method, path, body) {
  const response = await fetch(base + path, {
    method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${method} ${path} -> ${response.status} ${text.slice(0, 300)}`);
  }
  return text === '' ? null : JSON.parse(text);
}

async function inParallel(count, width, task) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) {
      await task(next++);
    }
  }));
}

async function load() {
  let started = Date.now();
  await inParallel(CLOCKS - 2, Number(process.env.WIDTH ?? 32), (i) => call('PUT', `/clocks/c-${String(i).padStart(5, '0')}`, { now: 0 }));
  console.log(`loaded ${CLOCKS - 2} clocks in ${Date.now() - started} ms`);
  await call('PUT', '/clocks/big', { delivery: 'queue', retry: { maxAttempts: 1 } });
  started = Date.now();
  // 500 operations a batch: a body stays under the default 64 KB limit
  await inParallel(TIMERS / 500, 4, (b) => call('POST', '/clocks/big/batch', {
    ops: Array.from({ length: 500 }, (_, i) => ({ op: 'add', id: `t-${b * 500 + i}`, delay: 1e12 + b * 500 + i,
      payload: { n: b * 500 + i } })),
  }));
  console.log(`loaded ${TIMERS} pending timers in ${Date.now() - started} ms`);
  started = Date.now();
  for (let b = 0; b < DEAD / 500; b++) {
    await call('POST', '/clocks/big/batch', {
      ops: Array.from({ length: 500 }, (_, i) => ({ op: 'add', id: `${b % 10 === 0 ? 'x' : 'd'}-${b * 500 + i}`,
        delay: 0, payload: { n: i } })),
    });
  }
  // an advance fires at most 10,000 timers a call: again until none is left due
  while (!(await call('POST', '/clocks/big/advance?limit=10000', { by: 0 })).complete) {
    // the next 10,000
  }
  for (let b = 0; b < DEAD / 1000; b++) {
    await call('POST', '/clocks/big/deliveries/claim', { max: 1000, lease: 1000 });
  }
  await call('POST', '/clocks/big/advance', { by: 1000 });
  const counts = await call('GET', '/clocks/big/deliveries');
  console.log(`made ${counts.dead} dead letters in ${Date.now() - started} ms`);
}

async function time(label, method, path, body, runs = RUNS) {
  const samples = [];
  let answer;
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    answer = await call(method, path, body);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  console.log(`RESULT ${label.padEnd(44)} median=${median.toFixed(1)}ms min=${samples[0].toFixed(1)}ms `
    + `max=${samples[samples.length - 1].toFixed(1)}ms runs=${runs}`);
  return answer;
}

if (process.env.LOAD !== '0') {
  await load();
  if (process.env.AFTER_LOAD) {
    // PostgreSQL: VACUUM ANALYZE, as autovacuum does after a load of this size (the visibility map for index-only
    // counts, statistics for the plans), instead of timing the pages before it came round
    execSync(process.env.AFTER_LOAD, { stdio: 'inherit' });
  }
}
console.log('-- clocks page');
await time('GET /clocks?limit=51 (first page)', 'GET', '/clocks?limit=51');
await time('GET /clocks?limit=51&after=c-05000', 'GET', '/clocks?limit=51&after=c-05000');
await time('GET /clocks?limit=51 (prefix c-099)', 'GET', '/clocks?limit=51&after=c-098%F4%8F%BF%BF');
console.log('-- clock page (big: 1,000,000 timers, 100,000 dead letters)');
await time('GET /clocks/big', 'GET', '/clocks/big');
await time('GET /clocks/big/timers?limit=25', 'GET', '/clocks/big/timers?limit=25');
await time('GET /clocks/big/timers?limit=1000', 'GET', '/clocks/big/timers?limit=1000');
await time('GET /clocks/big/timers/t-500000', 'GET', '/clocks/big/timers/t-500000');
// t-i fires at 1e12 + i (big was at 0): the page just before t-500000, half way through the firing order
await time('GET .../timers?limit=26&after=<500,000th>', 'GET', '/clocks/big/timers?limit=26&after=1000000500000,0,0');
await time('GET .../timers?limit=26&after=<999,990th>', 'GET', '/clocks/big/timers?limit=26&after=1000000999990,0,0');
await time('GET .../timers?limit=26&idPrefix=t-99999', 'GET', '/clocks/big/timers?limit=26&idPrefix=t-99999');
await time('GET .../timers?limit=26&idPrefix=none (no match)', 'GET', '/clocks/big/timers?limit=26&idPrefix=none');
await time('GET /clocks/big/schedules', 'GET', '/clocks/big/schedules');
await time('GET /clocks/big/push/recent', 'GET', '/clocks/big/push/recent');
await time('GET .../deliveries/list?state=ready&limit=50', 'GET', '/clocks/big/deliveries/list?state=ready&limit=50');
await time('GET .../deliveries/dead?limit=50', 'GET', '/clocks/big/deliveries/dead?limit=50');
await time('GET .../deliveries/dead?limit=50&after=1090000', 'GET', '/clocks/big/deliveries/dead?limit=50&after=1090000');
await time('GET .../deliveries/dead?idPrefix=x-&limit=50', 'GET', '/clocks/big/deliveries/dead?idPrefix=x-&limit=50');
await time('GET .../deliveries/count?state=dead&idPrefix=x-', 'GET',
  '/clocks/big/deliveries/count?state=dead&idPrefix=x-');
await time('GET .../deliveries/count?state=dead', 'GET', '/clocks/big/deliveries/count?state=dead');
const hourAgo = 1000; // big is a virtual clock at 1,000: its dead letters died at 1,000, when their leases ended
await time('GET .../deliveries/dead?deadSince=1000&limit=50', 'GET',
  `/clocks/big/deliveries/dead?deadSince=${hourAgo}&limit=50`);
await time('GET .../deliveries/count?state=dead&deadSince=1000', 'GET',
  `/clocks/big/deliveries/count?state=dead&deadSince=${hourAgo}`);
if (process.env.BULK === '0') {
  process.exit(0);
}
console.log('-- bulk actions (each once: they change the set)');
const redriven = await time('POST .../dead/redrive {idPrefix:"x-"}', 'POST', '/clocks/big/deliveries/dead/redrive',
  { idPrefix: 'x-' }, 1);
console.log(`   answered ${JSON.stringify(redriven)}`);
await time('GET .../deliveries/list?state=ready&limit=50', 'GET', '/clocks/big/deliveries/list?state=ready&limit=50');
const again = await time('POST .../dead/redrive {idPrefix:"x-"} again', 'POST', '/clocks/big/deliveries/dead/redrive',
  { idPrefix: 'x-' }, 1);
console.log(`   answered ${JSON.stringify(again)}`);
const all = await time('POST .../dead/redrive {} (the rest)', 'POST', '/clocks/big/deliveries/dead/redrive', {}, 1);
console.log(`   answered ${JSON.stringify(all)}`);
await time('GET .../deliveries/list?state=ready&limit=50', 'GET', '/clocks/big/deliveries/list?state=ready&limit=50');
