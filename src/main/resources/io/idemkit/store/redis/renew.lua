-- KEYS[1] the record; ARGV: token, lease (ms), grace (ms).
-- 1 when the claim held with the token has its lease moved, 0 when the claim was lost.
if not held(KEYS[1], ARGV[1]) then
    return 0
end
local lease_until = now_ms() + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'lease_until', fmt(lease_until))
redis.call('PEXPIREAT', KEYS[1], fmt(lease_until + tonumber(ARGV[3])))
return 1
