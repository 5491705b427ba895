/**
 * The Lua prelude of acme/notes. It runs in every section of a prompt that declares the Pack
 * and defines one global, the `notes` helper table, whose functions call the Pack's own tools
 * (`...` is the Pack id, `notes`, so the ids are built without spelling it out).
 */
export const NOTES_PRELUDE = `local pack = ...

local function call(name, args)
  return tools.call(pack .. "/" .. name, args)
end

notes = {}

-- notes.add(text): keeps one note (one line) and returns how many notes there are now.
function notes.add(text)
  if type(text) ~= "string" then
    error("notes.add takes the note as a string, got " .. type(text), 2)
  end
  return call("add", { text = text })
end

-- notes.list(): every note, oldest first.
function notes.list()
  return call("list")
end

-- notes.count(): how many notes there are.
function notes.count()
  return #call("list")
end

-- notes.clear(): deletes every note and returns how many there were.
function notes.clear()
  return call("clear")
end
`;
