-- wrk script for the HTTP benchmark (run.sh). Arguments: MODE KEY
--   MODE none:   no Idempotency-Key (the baseline endpoint ignores it anyway)
--   MODE fresh:  a new key on every request: KEY-<thread>-<n>
--   MODE replay: the same key KEY on every request (run.sh completes it first)
-- Every mode goes through request(), so the client costs the same in every case.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

local mode, key, prefix
local n = 0
function init(args)
  mode, key = args[1], args[2]
  prefix = key .. "-" .. tostring(tid) .. "-"
  wrk.method = "POST"
  wrk.body = '{"amount":1999,"currency":"EUR","to":"acct_42"}'
  wrk.headers["Content-Type"] = "application/json"
  if mode == "replay" then
    wrk.headers["Idempotency-Key"] = key
  end
end

function request()
  if mode == "fresh" then
    n = n + 1
    wrk.headers["Idempotency-Key"] = prefix .. n
  end
  return wrk.format()
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %.1f %.1f %d %d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
