-- Runs the rest of a Pack prelude install (preludes.lua) in its own thread, so a prelude's store
-- call can suspend it: `(key)`, the global the install left its continuation under.
local key = ...
local run = _ENV[key]
_ENV[key] = nil
return run()
