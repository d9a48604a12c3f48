-- wrk scenario for issue 16: workers that claim one clock's deliveries and acknowledge them.
-- Every connection is one worker step at a time: it acknowledges what its wrk thread claimed and has not yet
-- acknowledged, and when there is nothing claims (POST /clocks/CLOCK/deliveries/claim, max MAX, lease LEASE ms,
-- long poll WAIT ms). How it acknowledges, ACK:
--   batch  one POST /clocks/CLOCK/deliveries/ack {"acks":[{"id","claim"}...]} per claim answer (its up to MAX
--          deliveries, one journal record and one fsync in the service): the default;
--   each   one POST /clocks/CLOCK/deliveries/{id}/ack {"claim"} per delivery (the earlier client, kept to compare).
-- Responses are told apart by status and body: 204 a single ack, 200 starting {"acked": a batch ack, 200 a claim,
-- 409 a single ack whose claim was lost, anything else an error. Lost claims (409, or "claim_lost" outcomes in a
-- batch answer) are counted as lost, not acked.
-- Client-side lateness of each claimed delivery: the wall-clock time its claim answer arrived minus its fireTime
-- (epoch ms), read with clock_gettime through LuaJIT's FFI, in 0.1 ms buckets.
-- env: CLOCK (lat), MAX (100), LEASE (30000), WAIT (1000), ACK (batch), LABEL (printed), SKIP_MS (lateness of
-- deliveries due before the run's start + SKIP_MS is not counted: they waited for the run to start; default 1000),
-- LATE_FILE (when set, the lateness histogram is also written there, "bucket count" per line, so that the runs of
-- several wrk processes can be merged).
-- Prints one RESULT line: acked, lost, ack requests, claims (and empty ones), errors, acked/s and requests/s between
-- the first request and the last ack, lateness p50/p99/max, and the first request's and last ack's wall-clock times
-- (epoch ms; several wrk processes' RESULTs combine into one span).
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock_id, bench_timespec *tp);
]]
local now_ts = ffi.new("bench_timespec[1]")
local function wall_ms()
  ffi.C.clock_gettime(0, now_ts) -- CLOCK_REALTIME: fireTime is wall-clock epoch ms
  return tonumber(now_ts[0].tv_sec) * 1000 + tonumber(now_ts[0].tv_nsec) / 1e6
end

local clock = os.getenv("CLOCK") or "lat"
local claim_body = string.format('{"max":%d,"lease":%d,"wait":%d}', tonumber(os.getenv("MAX") or 100),
  tonumber(os.getenv("LEASE") or 30000), tonumber(os.getenv("WAIT") or 1000))
local claim_path = "/clocks/" .. clock .. "/deliveries/claim"
local json = {["Content-Type"] = "application/json"}
local skip_ms = tonumber(os.getenv("SKIP_MS") or 1000)
local ack_mode = os.getenv("ACK") or "batch"
if ack_mode ~= "batch" and ack_mode ~= "each" then error("ACK must be batch or each, not " .. ack_mode) end
local batch_ack_path = "/clocks/" .. clock .. "/deliveries/ack"

-- per wrk thread (each has its own Lua state): what is claimed and not yet acknowledged (ACK=each: one delivery
-- per entry, ids and claims; ACK=batch: one batch ack body per claim answer, bodies), and the tallies
local ids, claims, bodies, head, tail = {}, {}, {}, 1, 0
acked, lost, ack_calls, claimed, claim_calls, empty_claims, errors = 0, 0, 0, 0, 0, 0, 0
first_ms, last_ack_ms, counted_from = 0, 0, 0
late = {} -- bucket (0.1 ms) -> count

function init(args)
  counted_from = wall_ms() + skip_ms
end

function request()
  if first_ms == 0 then first_ms = wall_ms() end
  if head <= tail then
    local id, claim, body = ids[head], claims[head], bodies[head]
    ids[head], claims[head], bodies[head] = nil, nil, nil
    head = head + 1
    if body then return wrk.format("POST", batch_ack_path, json, body) end
    return wrk.format("POST", "/clocks/" .. clock .. "/deliveries/" .. id .. "/ack", json,
      '{"claim":"' .. claim .. '"}')
  end
  return wrk.format("POST", claim_path, json, claim_body)
end

function response(status, headers, body)
  if status == 204 then
    acked = acked + 1
    ack_calls = ack_calls + 1
    last_ack_ms = wall_ms()
  elseif status == 409 then
    lost = lost + 1
    ack_calls = ack_calls + 1
  elseif status == 200 and body:sub(1, 9) == '{"acked":' then
    local n = tonumber(body:match('^{"acked":(%d+)'))
    acked = acked + n
    ack_calls = ack_calls + 1
    for _ in body:gmatch('"claim_lost"') do lost = lost + 1 end
    last_ack_ms = wall_ms()
  elseif status == 200 then
    local arrived = wall_ms()
    claim_calls = claim_calls + 1
    local n, acks = 0, {}
    for id, fire_time, claim in body:gmatch('"id":"([^"]+)","fireTime":(%d+).-"claim":"([^"]+)"') do
      n = n + 1
      if ack_mode == "each" then
        tail = tail + 1
        ids[tail], claims[tail] = id, claim
      else
        acks[n] = '{"id":"' .. id .. '","claim":"' .. claim .. '"}'
      end
      local due = tonumber(fire_time)
      if due >= counted_from then
        local bucket = math.floor((arrived - due) * 10)
        if bucket < 0 then bucket = 0 end
        late[bucket] = (late[bucket] or 0) + 1
      end
    end
    if n > 0 and ack_mode == "batch" then
      tail = tail + 1
      bodies[tail] = '{"acks":[' .. table.concat(acks, ",") .. ']}'
    end
    claimed = claimed + n
    if n == 0 then empty_claims = empty_claims + 1 end
  else
    errors = errors + 1
  end
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local total = {acked = 0, lost = 0, ack_calls = 0, claimed = 0, claim_calls = 0, empty_claims = 0, errors = 0}
  local first, last, hist = math.huge, 0, {}
  for _, t in ipairs(threads) do
    for k in pairs(total) do total[k] = total[k] + t:get(k) end
    local f, l = t:get("first_ms"), t:get("last_ack_ms")
    if f > 0 and f < first then first = f end
    if l > last then last = l end
    for bucket, count in pairs(t:get("late")) do hist[bucket] = (hist[bucket] or 0) + count end
  end
  local buckets, n = {}, 0
  for bucket, count in pairs(hist) do table.insert(buckets, bucket); n = n + count end
  table.sort(buckets)
  local function pct(p)
    if n == 0 then return "-" end
    local want, seen = math.ceil(n * p / 100), 0
    for _, bucket in ipairs(buckets) do
      seen = seen + hist[bucket]
      if seen >= want then return string.format("%.1f", bucket / 10) end
    end
  end
  local seconds = last > first and (last - first) / 1000 or summary.duration / 1e6
  io.write(string.format("RESULT %s ack=%s acked=%d lost=%d ack_requests=%d claimed=%d claims=%d empty_claims=%d"
    .. " errors=%d socket_errors=%d seconds=%.2f acked_per_s=%.0f requests_per_s=%.0f late_n=%d late_p50_ms=%s"
    .. " late_p99_ms=%s late_max_ms=%s first_ms=%.1f last_ms=%.1f\n", os.getenv("LABEL") or "", ack_mode,
    total.acked, total.lost, total.ack_calls, total.claimed, total.claim_calls, total.empty_claims, total.errors,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, seconds,
    total.acked / seconds, (total.ack_calls + total.claim_calls) / seconds, n,
    pct(50), pct(99), n > 0 and string.format("%.1f", buckets[#buckets] / 10) or "-", first < math.huge and first or 0,
    last))
  local late_file = os.getenv("LATE_FILE")
  if late_file then
    local out = assert(io.open(late_file, "w"))
    for _, bucket in ipairs(buckets) do out:write(bucket, " ", hist[bucket], "\n") end
    out:close()
  end
end
