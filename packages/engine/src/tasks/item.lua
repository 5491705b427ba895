-- Setup step 4 (docs/design/tasks.md): the `item` global of a task chain's entry, run by
-- installItem (install-tasks.ts) through runPrivileged with `(P, item_json)`: the private table
-- and the task's item as JSON text, decoded with json.decode so markers and json.null are kept.
local P, item_json = ...
local G = P._G
P.rawset(G, 'item', P.rawget(G, 'json').decode(item_json))
