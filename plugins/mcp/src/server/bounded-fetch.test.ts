import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedFetch, type MessageTooLarge } from "./bounded-fetch";

describe("boundedFetch", () => {
  let url = "";
  const server = createServer((req, res) => {
    res.end("z".repeat(Number(new URL(req.url ?? "/", "http://h").searchParams.get("n"))));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    url =
      typeof address === "object" && address !== null ? `http://127.0.0.1:${address.port}/` : "";
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("passes a body within the limit and errors past it, telling the listener", async () => {
    const cuts: MessageTooLarge[] = [];
    const bounded = boundedFetch(100, (error) => cuts.push(error));
    await expect((await bounded(`${url}?n=100`)).text()).resolves.toBe("z".repeat(100));
    expect(cuts).toEqual([]);
    const response = await bounded(`${url}?n=5000`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow(
      "an MCP message exceeded the size limit of 100 bytes",
    );
    expect(cuts).toHaveLength(1);
  });
});
