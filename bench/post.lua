-- POST /timers with a unique id per request: ids are "<thread>-<counter>" so no two requests collide.
-- With CLOCKS=n the requests go round-robin to /clocks/bench-0/timers .. /clocks/bench-<n-1>/timers instead
-- (the clocks are created by bench/clocks-http.sh); without it, to the default clock's /timers.
-- ID_PREFIX (default "p") starts every id, so that two runs against one queue (a settling run, then the measured
-- window) post different ids. CLOCK=name sends every request to /clocks/<name>/timers; DELAY=ms gives every timer
-- that delay instead of one spread over the hour (bench/dedupe-window.sh --http).
local counter = 0
local prefix = os.getenv("ID_PREFIX") or "p"
local clocks = tonumber(os.getenv("CLOCKS") or "0")
local clock = os.getenv("CLOCK")
local delay = tonumber(os.getenv("DELAY") or "-1")
-- thread_id is a global that setup() gives each thread (a local here would shadow it: every thread would be 0)
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads)
  table.insert(threads, thread)
end

function request()
  counter = counter + 1
  local body = string.format('{"id":"%s%d-%d","delay":%d,"priority":%d}',
    prefix, thread_id, counter, delay >= 0 and delay or 1000 + (counter * 7919) % 3600000, counter % 4)
  local path = clocks > 0 and string.format("/clocks/bench-%d/timers", (counter + thread_id) % clocks) or "/timers"
  if clock then
    path = "/clocks/" .. clock .. "/timers"
  end
  return wrk.format("POST", path, {["Content-Type"] = "application/json"}, body)
end

done = dofile(os.getenv("BENCH_DIR") .. "/report.lua")
