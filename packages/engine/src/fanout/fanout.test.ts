import { describe, expect, it } from "vitest";
import { failureOf, headline } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { MemoryPort } from "../test-support/memory-port";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

const run = (...parts: string[]) => runTestPrompt(promptText(body(...parts)), { args: "outer" });

/** A prompt whose `## Main` runs `main` and whose `### Worker` runs `worker`. */
const fan = (main: string, worker: string, ...more: string[]) =>
  run("# T", "## Main", lua(main), "### Worker", lua(worker), ...more);

/** `kind|message` of what `code` raises, caught with pcall, in `## Main`. */
const refusalOf = async (code: string, worker = "return item") => {
  const r = await fan(
    `local ok, err = pcall(function()\n${code}\nend)\nassert(not ok, 'no error')\nreturn tostring(err.kind) .. '|' .. tostring(err)`,
    worker,
  );
  return resultText(r);
};

describe("tasks.fanout dispatch", () => {
  it("gives each arm its member, position, task id, args and a copy of var", async () => {
    const r = await fan(
      [
        "var.n = 1",
        "local r = tasks.fanout('### Worker', { 'x', 'y' })",
        "return table.concat(r, ',') .. ' ' .. var.n .. ' ' .. sys.id",
      ].join("\n"),
      "var.n = var.n + sys.index\nreturn table.concat({ item, sys.index, sys.taskid, sys.id, args, var.n }, ':')",
    );
    expect(resultText(r)).toBe("x:1:0.0:0.0.0:outer:2,y:2:0.1:0.1.0:outer:3 1 0.1");
  });

  it("takes the members in the deterministic key order, values only", async () => {
    const r = await fan(
      [
        "local t = { 'a', 'b', z = 'last', m = 'mid', [true] = 'bool', [10] = 'ten', [2.5] = 'half' }",
        "local r = tasks.fanout('### Worker', t)",
        "return table.concat(r, ',')",
      ].join("\n"),
      "return sys.index .. '=' .. item",
    );
    expect(resultText(r)).toBe("1=a,2=b,3=bool,4=half,5=ten,6=mid,7=last");
  });

  it("skips holes, runs a json.null member, and keeps tables as JSON data", async () => {
    const r = await fan(
      [
        "local t = { 'a', nil, json.null, { n = 1, list = json.array() } }",
        "local r = tasks.fanout('### Worker', t)",
        "return #r .. ' ' .. table.concat(r, ',') .. ' ' .. json.encode(r[3].item)",
      ].join("\n"),
      "if item == json.null then return 'null' end\nif type(item) == 'table' then return json.encode(item) end\nreturn item",
    );
    expect(resultText(r)).toBe('3 a,null,{"list":[],"n":1} {"list":[],"n":1}');
  });

  it("reads a var view through, as json.encode does", async () => {
    const r = await fan(
      "var.items = { 'p', 'q' }\nlocal r = tasks.fanout('### Worker', var.items)\nreturn table.concat(r, '+')",
      "return item .. sys.index",
    );
    expect(resultText(r)).toBe("p1+q2");
  });

  it("returns empty results for an empty collection", async () => {
    const r = await fan(
      "local r = tasks.fanout('### Worker', {})\nreturn #r .. json.encode(r) .. tostring(r[1])",
      "error('never runs')",
    );
    expect(resultText(r)).toBe("0[]nil");
  });

  it("nests arm ids under a called chain and numbers later calls after the arms", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "local r = tasks.fanout('### Worker', { 1, 2 })\nreturn table.concat(r, ',') .. ',' .. call('### Leaf')",
      ),
      "### Worker",
      lua("return sys.id .. '/' .. call('#### Inner')"),
      "#### Inner",
      lua("return sys.id"),
      "### Leaf",
      lua("return sys.id"),
    );
    expect(resultText(r)).toBe("0.0.0/0.0.0.0,0.1.0/0.1.0.0,0.2.0");
  });

  it("reports task_started by fanout with the index, task_finished, and one task_joined", async () => {
    const r = await fan("tasks.fanout('### Worker', { 'a', 'b' })", "return item");
    const task = r.port.events.flatMap((e) => {
      if (e.type === "task_started") return [`started ${e.task} ${e.by} ${e.index} ${e.target}`];
      if (e.type === "task_finished") return [`finished ${e.task} ${e.outcome}`];
      if (e.type === "task_joined") return [`joined ${e.tasks.join(",")}`];
      return [];
    });
    expect(task.slice(0, 2)).toEqual([
      "started 0.0 fanout 1 ### Worker",
      "started 0.1 fanout 2 ### Worker",
    ]);
    expect(task.slice(2, 4).sort()).toEqual(["finished 0.0 succeeded", "finished 0.1 succeeded"]);
    expect(task[4]).toBe("joined 0.0,0.1");
  });

  it("runs the arms under the entry's concurrency limit", async () => {
    const port = new MemoryPort();
    let inFlight = 0;
    let most = 0;
    port.beforeStoreOp = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight--;
    };
    const text = promptText(
      body(
        "# T",
        "## Main",
        lua(
          "tasks.concurrency(2)\nlocal r = tasks.fanout('### Worker', { 1, 2, 3, 4, 5 })\nreturn #r",
        ),
        "### Worker",
        lua("store.read('in/' .. item .. '.txt')\nreturn item"),
      ),
    );
    const files = {
      "in/1.txt": "",
      "in/2.txt": "",
      "in/3.txt": "",
      "in/4.txt": "",
      "in/5.txt": "",
    };
    for (const [path, contents] of Object.entries(files)) await port.store.write(path, contents);
    const r = await runTestPrompt(text, { port });
    expect(resultText(r)).toBe("5");
    expect(most).toBe(2);
  });
});

describe("tasks.fanout results", () => {
  it("encodes an entry through its sealed view and joins texts with table.concat", async () => {
    const r = await fan(
      [
        "local r = tasks.fanout('### Worker', { 'alpha', 'beta' })",
        "return json.encode(r[1]) .. ' ' .. json.encode(r) .. ' ' .. table.concat(r, ',') .. ' ' .. tostring(r[2])",
      ].join("\n"),
      "return item .. '-' .. sys.index",
    );
    expect(resultText(r)).toBe(
      '{"exhausted":false,"item":"alpha","ok":true,"text":"alpha-1"} ' +
        '[{"exhausted":false,"item":"alpha","ok":true,"text":"alpha-1"},{"exhausted":false,"item":"beta","ok":true,"text":"beta-2"}] ' +
        "alpha-1,beta-2 beta-2",
    );
  });

  it("iterates with ipairs, pairs and #, and refuses json.array and assignment", async () => {
    const r = await fan(
      [
        "local r = tasks.fanout('### Worker', { 'a', 'b', 'c' })",
        "local seen = {}",
        "for i, e in ipairs(r) do seen[#seen + 1] = i .. e.text end",
        "for i, e in pairs(r) do seen[#seen + 1] = i .. tostring(e) end",
        "local keys = {}",
        "for k in pairs(r[1]) do keys[#keys + 1] = k end",
        "local ok1, e1 = pcall(json.array, r)",
        "local ok2, e2 = pcall(function() r[1] = 1 end)",
        "local ok3, e3 = pcall(function() r[1].text = 'x' end)",
        "local mt = getmetatable(r[1])",
        "return table.concat(seen, ' ') .. '|' .. table.concat(keys, ',') .. '|' .. #r .. '|' .. tostring(e1) .. '|' .. tostring(e2)",
        "  .. '|' .. tostring(e3) .. '|' .. getmetatable(r) .. '|' .. type(mt.__tostring) .. '|' .. getmetatable(mt)",
      ].join("\n"),
      "return item",
    );
    expect(resultText(r)).toBe(
      "1a 2b 3c 1a 2b 3c|exhausted,item,ok,text|3|json.array: the table already has a metatable" +
        "|fanout results are read-only; cannot set '1'|fanout results are read-only; cannot set 'text'" +
        "|fanout results are read-only|function|fanout results are read-only",
    );
  });

  it("makes text from numbers, booleans and a missing return", async () => {
    const r = await fan(
      "local r = tasks.fanout('### Worker', { 1, 2, 3, 4 })\nreturn table.concat(r, ',') .. '|' .. tostring(r[4].ok)",
      "if item == 1 then return 2 elseif item == 2 then return 2.5 elseif item == 3 then return true end",
    );
    expect(resultText(r)).toBe("2,2.5,true,|true");
  });
});

describe("tasks.fanout refusals", () => {
  it("refuses a collection that is not a table, and more arguments", async () => {
    expect(await refusalOf("tasks.fanout('### Worker', 5)")).toBe(
      "lua|tasks.fanout takes a collection table, got integer",
    );
    expect(await refusalOf("tasks.fanout('### Worker', {}, 1)")).toBe(
      "lua|tasks.fanout takes (target, collection)",
    );
  });

  it("refuses a target that does not resolve, as call does", async () => {
    expect(await refusalOf("tasks.fanout('### Missing', {})")).toBe(
      "lua|section heading `### Missing` not found",
    );
    expect(await refusalOf("tasks.fanout(1, {})")).toBe("lua|section target must be a string");
  });

  it("refuses keys with no fixed order and members that are not JSON data, starting nothing", async () => {
    expect(await refusalOf("tasks.fanout('### Worker', { [{}] = 1 })")).toBe(
      "lua|tasks.fanout: the collection has a table key, whose order is not fixed",
    );
    expect(await refusalOf("tasks.fanout('### Worker', { [math.huge] = 1 })")).toBe(
      "lua|tasks.fanout: the collection has a infinite number key, whose order is not fixed",
    );
    expect(await refusalOf("tasks.fanout('### Worker', { 'a', print or function() end })")).toBe(
      "lua|collection[2] must be JSON data, got function",
    );
    expect(await refusalOf("tasks.fanout('### Worker', { x = { f = function() end } })")).toBe(
      "lua|collection.x.f must be JSON data, got function",
    );
    const r = await fan(
      "pcall(tasks.fanout, '### Worker', { 'a', function() end })\nreturn 'done'",
      "return item",
    );
    expect(r.port.types()).not.toContain("task_started");
  });

  it("refuses a view that cannot be read and a collection over 10,000 members", async () => {
    expect(await refusalOf("tasks.fanout('### Worker', sys)")).toBe(
      "lua|tasks.fanout: collection cannot be read (sys is sealed); copy the members into a plain table",
    );
    expect(
      await refusalOf(
        "local t = {}\nfor i = 1, 10001 do t[i] = i end\ntasks.fanout('### Worker', t)",
      ),
    ).toBe("lua|tasks.fanout: the collection has 10001 members, over the limit of 10000");
  });

  it("refuses past the depth cap with a quota refusal that ends the run as Quota", async () => {
    const r = await run("# T", "## Main", lua("return tasks.fanout('## Main', { 1 })[1].text"));
    const error = failureOf(r);
    expect(error.kind).toBe("Quota");
    expect(headline(error)).toContain("tasks.fanout recursion exceeded cap of 8");
  });

  it("gives arms no handles: joining an arm's id is task_not_owned", async () => {
    expect(
      await refusalOf("tasks.fanout('### Worker', { 'a' })\ntasks.join({ { task = '0.0' } })"),
    ).toBe("task_not_owned|tasks.join: task 0.0 was not started by this section entry");
  });
});

describe("tasks.fanout failure policy", () => {
  it("turns a work failure into an ok = false entry and runs the other arms", async () => {
    const r = await fan(
      [
        "local r = tasks.fanout('### Worker', { 'a', 'missing', 'b' })",
        "local parts = {}",
        "for _, e in ipairs(r) do parts[#parts + 1] = tostring(e.ok) .. ':' .. e.text .. ':' .. tostring(e.exhausted) end",
        "return table.concat(parts, ' ')",
      ].join("\n"),
      "if item == 'missing' then store.read('missing.txt') end\nreturn item",
    );
    expect(resultText(r)).toBe("true:a:false false:missing.txt: not found:false true:b:false");
  });

  it("raises the lowest failing arm's error value at the call, kind and fields kept", async () => {
    const r = await fan(
      [
        "local ok, err = pcall(tasks.fanout, '### Worker', { 1, 2, 3, 4 })",
        "return tostring(ok) .. '|' .. err.kind .. '|' .. tostring(err)",
      ].join("\n"),
      "if item >= 2 then error('boom ' .. item) end\nreturn 'fine'",
    );
    expect(resultText(r)).toMatch(/^false\|lua\|.*boom 2$/);
  });

  it("ends the run as Lua with the arm's message when nobody catches it", async () => {
    const r = await fan(
      "tasks.fanout('### Worker', { 'a' })\nreturn 'unreached'",
      "error('arm boom')",
    );
    const error = failureOf(r);
    expect(error.kind).toBe("Lua");
    expect(headline(error)).toContain("arm boom");
  });

  it("cancels the arms after a failing one and still waits for the ones before it", async () => {
    const port = new MemoryPort();
    const text = promptText(
      body(
        "# T",
        "## Main",
        lua("local ok, err = pcall(tasks.fanout, '### Worker', { 1, 2, 3 })\nreturn tostring(err)"),
        "### Worker",
        lua(
          "if item == 2 then error('two') end\nif item == 1 then store.write('slow/1', 'x') end\nif item == 3 then store.write('hang/3', 'x') end\nreturn 'ok'",
        ),
      ),
    );
    port.beforeStoreOp = (request) => {
      const path = "path" in request.operation ? String(request.operation.path) : "";
      if (path === "hang/3") return new Promise<void>(() => undefined);
      if (path === "slow/1") return new Promise<void>((resolve) => setTimeout(resolve, 20));
      return undefined;
    };
    const r = await runTestPrompt(text, { port });
    expect(resultText(r)).toContain("two");
    const finished = r.port.events.flatMap((e) =>
      e.type === "task_finished" ? [`${e.task}:${e.outcome}`] : [],
    );
    expect(finished.sort()).toEqual(["0.0:succeeded", "0.1:failed", "0.2:cancelled"]);
    expect(await r.port.files()).toEqual({ "slow/1": "x" });
  });
});
