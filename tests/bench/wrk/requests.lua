-- wrk script: sends the requests listed in the file named by WRK_REQUESTS (one per line:
-- METHOD<TAB>PATH<TAB>COOKIE<TAB>BODY, cookie and body may be empty), each thread taking every
-- n-th line in turn and starting over at the end; counts answers by status class and prints one
-- line `WRK_JSON {...}` with the totals and latency percentiles (microseconds).
local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

local lines = {}
local position = 0
counts = { ok = 0, client_error = 0, server_error = 0 }

function init(args)
  local total_threads = tonumber(os.getenv("WRK_THREADS") or "1")
  local i = 0
  for line in io.lines(os.getenv("WRK_REQUESTS")) do
    if i % total_threads == id then
      local method, path, cookie, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
      local headers = { ["Origin"] = os.getenv("WRK_ORIGIN") }
      if cookie ~= "" then headers["Cookie"] = cookie end
      if body ~= "" then headers["Content-Type"] = "application/json" else body = nil end
      table.insert(lines, wrk.format(method, path, headers, body))
    end
    i = i + 1
  end
end

function request()
  position = position % #lines + 1
  return lines[position]
end

function response(status, headers, body)
  if status >= 500 then
    counts.server_error = counts.server_error + 1
  elseif status >= 400 then
    counts.client_error = counts.client_error + 1
  else
    counts.ok = counts.ok + 1
  end
end

function done(summary, latency, requests)
  local ok, client_error, server_error = 0, 0, 0
  for _, t in ipairs(threads) do
    local c = t:get("counts")
    ok = ok + c.ok
    client_error = client_error + c.client_error
    server_error = server_error + c.server_error
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"ok":%d,"clientErrors":%d,"serverErrors":%d,"socketErrors":%d,"p50Us":%d,"p95Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, ok, client_error, server_error, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
