-- KEYS[1] the count; ARGV[1]: retention (ms). The count after this attempt; a value that is not a
-- count (another type, not a number) starts over.
local n = redis.pcall('INCR', KEYS[1])
if type(n) == 'table' and n.err then
    redis.call('DEL', KEYS[1])
    n = redis.call('INCR', KEYS[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return n
