-- make loadtest: wrk's script for the sync API (run by tokens-loadtest, which starts wrk with as
-- many threads as connections, so each thread is one connection and one client).
--
--   wrk -t N -c N -s sync.lua URL -- WORKLOAD [DELAY_MS]
--
-- WORKLOAD is push (each request changes the client's entry, based on the sequence the previous
-- push returned), pull (a full pull: every entry of the client's account) or head (a pull after
-- the account's head: the check a syncing client makes, answered with an empty page).
-- DELAY_MS, when given, is each connection's pause before a request (a fixed, lower rate).
-- The clients come from the file named by TOKENS_LOAD_CLIENTS, one per line:
--   TOKEN ENTRY_ID BASED_ON HEAD
-- At the end it prints one line of JSON, prefixed "RESULT ", for tokens-loadtest to read.

local clients = {}
local threads = {}

function setup(thread)
  if #clients == 0 then
    for line in io.lines(os.getenv("TOKENS_LOAD_CLIENTS")) do
      local token, entry, based, head = line:match("^(%S+) (%S+) (%d+) (%d+)$")
      clients[#clients + 1] = { token = token, entry = entry, based = based, head = head }
    end
  end
  local client = clients[#threads % #clients + 1]
  thread:set("token", client.token)
  thread:set("entry", client.entry)
  thread:set("based", client.based)
  thread:set("head", client.head)
  thread:set("unexpected", 0)
  thread:set("conflicts", 0)
  threads[#threads + 1] = thread
end

local workload, pause, headers
-- 256 bytes, as an encrypted entry of a few fields is; the server never reads it.
local ciphertext = string.rep("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3", 8) .. "QUJDREVGR0hJSktMTU5PUFFS"

function init(args)
  workload = args[1]
  pause = tonumber(args[2] or "0")
  unexpected = 0
  conflicts = 0
  headers = { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }
end

function delay()
  return pause
end

function request()
  if workload == "push" then
    local body = '{"changes":[{"id":"' .. entry .. '","basedOn":' .. based ..
      ',"deleted":false,"keyVersion":1,"nonce":"AAECAwQFBgcICQoL","ciphertext":"' .. ciphertext .. '"}]}'
    return wrk.format("POST", "/v1/entries", headers, body)
  elseif workload == "pull" then
    return wrk.format("GET", "/v1/entries?after=0", headers)
  else
    return wrk.format("GET", "/v1/entries?after=" .. head, headers)
  end
end

function response(status, _, body)
  if status < 200 or status > 299 then
    unexpected = unexpected + 1
  elseif workload == "push" then
    local sequence = body:match('"sequence"%s*:%s*(%d+)')
    if sequence then based = sequence else conflicts = conflicts + 1 end
  end
end

function done(summary, latency, _)
  local unexpectedTotal, conflictTotal = 0, 0
  for _, thread in ipairs(threads) do
    unexpectedTotal = unexpectedTotal + thread:get("unexpected")
    conflictTotal = conflictTotal + thread:get("conflicts")
  end
  local errors = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"microseconds":%d,"non2xx":%d,"conflicts":%d,"socketErrors":%d,' ..
      '"p50Microseconds":%d,"p99Microseconds":%d}\n',
    summary.requests, summary.duration, unexpectedTotal, conflictTotal,
    errors.connect + errors.read + errors.write + errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
