import { lua, promptText } from "./test-execute";

/**
 * The program of the randomized-completion test (engine/src/claims): a fanout of eight arms,
 * each a model loop with a tool round, a direct tool call, a store write, a child task and a
 * call; then a tally task and a summary. Concurrent chains everywhere.
 */
export const FANOUT_PROMPT = promptText(
  [
    "# Random",
    "## Main",
    lua(
      [
        "local r = tasks.fanout('### Arm', { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' })",
        "local parts = {}",
        "for i, e in ipairs(r) do parts[i] = e.text end",
        "local t = tasks.join({ tasks.spawn('### Tally', #r) })",
        "store.write('summary.txt', table.concat(parts, '\\n') .. '\\n' .. t[1].result)",
        "var.summary = #parts",
        "return store.read('summary.txt') .. '|' .. #store.list('out') .. '|' .. sys.id",
      ].join("\n"),
    ),
    "### Arm",
    lua(
      [
        "models.use('writer')",
        "tools.offer('fix/echo')",
        "messages:user('echo ' .. item)",
        "local said = models.loop()",
        "local direct = tools.call('fix/echo', { value = item .. '!' })",
        "store.write('out/' .. sys.id, said .. '|' .. direct)",
        "local child = tasks.join({ tasks.spawn('#### Child', item) })[1].result",
        "local leaf = call('#### Leaf', item)",
        "return table.concat({ sys.taskid, sys.id, said, direct, child, leaf }, ';')",
      ].join("\n"),
    ),
    "#### Child",
    lua(
      "store.write('child/' .. sys.taskid, item)\nreturn sys.taskid .. '=' .. store.read('child/' .. sys.taskid)",
    ),
    "#### Leaf",
    lua("return 'leaf ' .. args .. ' ' .. sys.id"),
    "### Tally",
    lua("store.write('tally.txt', tostring(item))\nreturn 'tally ' .. sys.taskid"),
  ].join("\n\n"),
);
