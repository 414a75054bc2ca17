-- idemkit's record on Redis: one hash per effective key, read and changed only by these scripts,
-- each of which runs atomically on the server that holds the key. Every time comes from the
-- server's clock (TIME), in milliseconds since the epoch. Fields: state (CLAIMED or COMPLETED),
-- fp, fpv, token, claimed_at, lease_until; once completed also completed_at, expires_at, status,
-- headers (length-prefixed: "<bytes>:<name><bytes>:<value>" per header) and body (raw bytes).
-- This prelude is prepended to every script; the script follows it.
if redis.replicate_commands then
    redis.replicate_commands()
end
local FIELDS = {'state', 'fp', 'fpv', 'token', 'claimed_at', 'lease_until', 'completed_at',
                'expires_at', 'status', 'headers', 'body'}

local function now_ms()
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function fmt(ms)
    return string.format('%.0f', ms)
end

-- a decimal integer of at most 16 digits, or nil
local function int(s)
    if type(s) ~= 'string' or #s > 17 or not string.match(s, '^%-?%d+$') then
        return nil
    end
    return tonumber(s)
end

-- the position after one length-prefixed string starting at pos, or nil
local function skip(h, pos)
    local colon = string.find(h, ':', pos, true)
    if not colon then
        return nil
    end
    local len = int(string.sub(h, pos, colon - 1))
    if not len or len < 0 or colon + len > #h then
        return nil
    end
    return colon + 1 + len
end

local function headers_ok(h)
    local pos = 1
    while pos <= #h do
        pos = skip(h, pos)
        if not pos then
            return false
        end
        pos = skip(h, pos)
        if not pos then
            return false
        end
    end
    return true
end

local function text(s)
    return type(s) == 'string' and string.find(s, '%S') ~= nil
end

-- the record under key as a table (its raw field values in r.raw), or nil and whether something
-- unreadable is there: another type, a missing or malformed field
local function read(key)
    local v = redis.pcall('HMGET', key, unpack(FIELDS))
    if v['err'] then
        return nil, true -- another type than a hash
    end
    if not v[1] then
        -- no state: nothing there, or a hash without one
        return nil, redis.call('EXISTS', key) == 1
    end
    local r = {state = v[1], token = v[4], fpv = int(v[3]), claimed_at = int(v[5]),
               lease_until = int(v[6]), raw = v}
    if (r.state ~= 'CLAIMED' and r.state ~= 'COMPLETED') or not text(v[2]) or #v[2] > 256
            or not r.fpv or r.fpv < 1 or r.fpv > 2147483647 or not text(r.token)
            or not r.claimed_at or not r.lease_until then
        return nil, true
    end
    if r.state == 'COMPLETED' then
        r.expires_at = int(v[8])
        local status = int(v[9])
        if not int(v[7]) or not r.expires_at or not status or status < 100 or status > 599
                or type(v[10]) ~= 'string' or not headers_ok(v[10])
                or type(v[11]) ~= 'string' then
            return nil, true
        end
    end
    return r, false
end

local function live(r, now)
    if r.state == 'COMPLETED' then
        return now < r.expires_at
    end
    return now < r.lease_until
end

local function held(key, token)
    local r = read(key)
    return r ~= nil and r.state == 'CLAIMED' and r.token == token
end

local function announce(channel, key)
    if channel ~= '' then
        redis.call('PUBLISH', channel, key)
    end
end
