-- KEYS[1] the record; ARGV: fingerprint, fingerprint version, lease (ms), new token, grace (ms).
-- A live record answers as it is: {state, now, fields}. Anything else (absent, lapsed, expired,
-- unreadable) is replaced by a new claim: {NEW or LEASE_RECLAIMED, now, recovered (1 or 0)}. The
-- token is new to every claim, so the same call sent twice finds its own claim the second time.
local now = now_ms()
local r, unreadable = read(KEYS[1])
if r and r.state == 'CLAIMED' and r.token == ARGV[4] then
    -- This claim, sent again after its connection broke: it landed the first time.
    return {'NEW', r.raw[5], '0'}
end
if r and live(r, now) then
    return {r.state, fmt(now), r.raw}
end
local lease_until = now + tonumber(ARGV[3])
-- Absent: the first write is HSET, which a server at its maxmemory refuses (a DEL first would let
-- the script write past the limit). Present: what is taken over is replaced whole.
if r or unreadable then
    redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], 'state', 'CLAIMED', 'fp', ARGV[1], 'fpv', ARGV[2], 'token', ARGV[4],
           'claimed_at', fmt(now), 'lease_until', fmt(lease_until))
redis.call('PEXPIREAT', KEYS[1], fmt(lease_until + tonumber(ARGV[5])))
local status = 'NEW'
if r and r.state == 'CLAIMED' then
    status = 'LEASE_RECLAIMED'
end
return {status, fmt(now), unreadable and '1' or '0'}
