-- POST /clock/advance by ADVANCE_BY ms against a queue preloaded with one timer per ms (see run-http.sh),
-- so every call fires ADVANCE_BY timers.
local by = os.getenv("ADVANCE_BY") or "1000"

function request()
  return wrk.format("POST", "/clock/advance", {["Content-Type"] = "application/json"}, '{"by":' .. by .. '}')
end

done = dofile(os.getenv("BENCH_DIR") .. "/report.lua")
