-- KEYS[1] the record; ARGV: token, channel, key.
-- 1 when the claim held with the token is deleted, 0 when the claim was lost.
if not held(KEYS[1], ARGV[1]) then
    return 0
end
redis.call('DEL', KEYS[1])
announce(ARGV[2], ARGV[3])
return 1
