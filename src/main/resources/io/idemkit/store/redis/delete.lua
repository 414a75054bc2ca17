-- KEYS[1] the record; ARGV: channel, key. 1 when a record (of any state) was deleted.
local deleted = redis.call('DEL', KEYS[1])
if deleted == 1 then
    announce(ARGV[1], ARGV[2])
end
return deleted
