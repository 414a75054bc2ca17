-- KEYS[1] any key (it routes the script on a cluster). The server's clock, in milliseconds.
return fmt(now_ms())
