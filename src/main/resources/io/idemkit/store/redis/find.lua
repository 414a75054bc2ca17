-- KEYS[1] the record; ARGV[1]: 'live' (a claim whose lease ran out is not returned) or 'visible'
-- (it is). The record's fields, or nil when it is absent, unreadable or expired.
local r = read(KEYS[1])
if not r then
    return false
end
local now = now_ms()
if r.state == 'COMPLETED' and now >= r.expires_at then
    return false
end
if ARGV[1] == 'live' and r.state == 'CLAIMED' and now >= r.lease_until then
    return false
end
return r.raw
