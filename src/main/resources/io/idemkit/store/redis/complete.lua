-- KEYS[1] the record; ARGV: token, retention (ms), status, headers, body, channel, key, and 1 when
-- this call is sent again after its connection broke. 1 when the claim held with the token is now
-- completed (or, sent again, was completed with it the first time), 0 when the claim was lost.
if not held(KEYS[1], ARGV[1]) then
    if ARGV[8] == '1' then
        local r = read(KEYS[1])
        if r and r.state == 'COMPLETED' and r.token == ARGV[1] then
            return 1
        end
    end
    return 0
end
local now = now_ms()
local expires_at = now + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'state', 'COMPLETED', 'completed_at', fmt(now), 'expires_at',
           fmt(expires_at), 'status', ARGV[3], 'headers', ARGV[4], 'body', ARGV[5])
redis.call('PEXPIREAT', KEYS[1], fmt(expires_at))
announce(ARGV[6], ARGV[7])
return 1
