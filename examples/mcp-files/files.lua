-- The prelude of local/files (runvil.config.json names this file): helpers over the
-- reference MCP filesystem server's tools. The server is not marked trusted, so every
-- answer reaches Lua inside the run's untrusted envelope; `inside` cuts the text out.
local pack = ...

function inside(wrapped)
  return string.match(wrapped, '<untrusted_input_%x+>\n(.*)\n</untrusted_input_%x+>$')
end

-- The names of the files (not folders) in `folder` of the notes directory, sorted.
function note_files(folder)
  local listing = inside(tools.call(pack .. '/list_directory', { path = folder }))
  local names = {}
  for line in string.gmatch(listing, '[^\n]+') do
    local name = string.match(line, '^%[FILE%] (.+)$')
    if name then names[#names + 1] = name end
  end
  table.sort(names)
  return names
end

-- The text of one note (a path inside the notes directory).
function read_note(path) return inside(tools.call(pack .. '/read_text_file', { path = path })) end
