import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { Frame } from "../protocol/frame";
import { formatAge, frameChecks, hasChecks } from "./frame-checks";
import { ACP_NOTIFICATIONS, ACP_REQUESTS, staticChecks } from "./static-checks";
import { FrameIndex } from "./frame-index";
import { FrameSequencer } from "../protocol/frame-sequencer";

const codes = (f: Frame, index?: FrameIndex, now = f.ts) => frameChecks(f, index, now).map((c) => c.code);

describe("known ACP methods", () => {
  it("match the SDK schema's x-method / x-side annotations", () => {
    const require = createRequire(import.meta.url);
    const path = require.resolve("@agentclientprotocol/sdk/schema/v1/schema.json");
    const schema = JSON.parse(readFileSync(path, "utf8")) as { $defs: Record<string, Record<string, unknown>> };
    const requests: Record<string, string> = {};
    const notifications: Record<string, string> = {};
    for (const [name, def] of Object.entries(schema.$defs)) {
      const method = def["x-method"];
      const side = def["x-side"];
      if (typeof method !== "string") continue;
      const dir = side === "agent" ? "to-agent" : side === "client" ? "from-agent" : "both";
      if (name.endsWith("Request")) requests[method] = dir;
      else if (name.endsWith("Notification")) notifications[method] = dir;
    }
    expect(ACP_REQUESTS).toEqual(requests);
    expect(ACP_NOTIFICATIONS).toEqual(notifications);
  });
});

describe("protocol checks", () => {
  const s = new FrameSequencer();
  const index = new FrameIndex();
  const line = (dir: Frame["dir"], raw: string) => {
    const f = s.line(dir, raw);
    index.add(f);
    return f;
  };

  it("flags a response to an id no request has", () => {
    const f = line("from-agent", '{"jsonrpc":"2.0","id":77,"result":{}}');
    expect(codes(f, index)).toEqual(["orphan-response"]);
    expect(hasChecks(f, index)).toBe(true);
  });

  it("flags a known notification sent with an id, and a known request without one", () => {
    const cancel = line("to-agent", '{"jsonrpc":"2.0","id":5,"method":"session/cancel","params":{}}');
    expect(codes(cancel)).toEqual(["notification-with-id"]);
    const update = line("from-agent", '{"jsonrpc":"2.0","id":6,"method":"session/update","params":{}}');
    expect(staticChecks(update).map((c) => c.code)).toEqual(["notification-with-id"]);
    const prompt = line("to-agent", '{"jsonrpc":"2.0","method":"session/prompt","params":{}}');
    expect(codes(prompt, index)).toEqual(["request-without-id"]);
    expect(hasChecks(prompt, index)).toBe(true);
  });

  it("flags a known method going the wrong way", () => {
    const f = line("to-agent", '{"jsonrpc":"2.0","method":"session/update","params":{}}');
    expect(codes(f)).toEqual(["wrong-direction"]);
    expect(codes(line("from-agent", '{"jsonrpc":"2.0","method":"$/cancel_request","params":{}}'))).toEqual([]);
  });

  it("flags requests still unanswered, with their age, until answered", () => {
    const req = line("to-agent", '{"jsonrpc":"2.0","id":100,"method":"initialize","params":{}}');
    const checks = frameChecks(req, index, req.ts + 12_345);
    expect(checks.map((c) => c.code)).toEqual(["unanswered"]);
    expect(checks[0]!.message).toBe("no response after 12 s");
    expect(hasChecks(req, index)).toBe(true);
    const res = line("from-agent", '{"jsonrpc":"2.0","id":100,"result":{}}');
    expect(codes(req, index)).toEqual([]);
    expect(codes(res, index)).toEqual([]);
    expect(hasChecks(req, index)).toBe(false);
  });

  it("leaves good, unknown and invalid frames alone", () => {
    expect(codes(line("from-agent", '{"jsonrpc":"2.0","method":"session/update","params":{}}'), index)).toEqual([]);
    expect(codes(line("to-agent", '{"jsonrpc":"2.0","method":"_vendor/thing"}'), index)).toEqual([]);
    const bad = line("to-agent", "{not json");
    expect(codes(bad, index)).toEqual([]);
    expect(hasChecks(bad, index)).toBe(false);
  });

  it("shows the recording rules the inspector has no other check for, naming the requirement", () => {
    const s = new FrameSequencer();
    const index = new FrameIndex();
    const add = (dir: "to-agent" | "from-agent", m: object) => {
      const f = s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...m }));
      index.add(f);
      return f;
    };
    add("to-agent", { id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });
    add("from-agent", { id: 0, result: { protocolVersion: 1 } });
    const read = add("from-agent", { id: 9, method: "fs/read_text_file", params: { sessionId: "s", path: "/a" } });
    const update = add("from-agent", {
      method: "session/update",
      params: { sessionId: "ghost", update: { sessionUpdate: "plan", entries: [] } },
    });
    expect(codes(read, index)).toEqual(["not-advertised", "unanswered"]);
    expect(frameChecks(read, index, read.ts)[0]!.message).toMatch(/fs\.readTextFile.*\(PG-REC-008\)$/);
    expect(codes(update, index)).toEqual(["unknown-session"]);
    expect(hasChecks(update, index)).toBe(true);
    expect(hasChecks(update, undefined)).toBe(false);
  });

  it("formats ages", () => {
    expect(formatAge(850)).toBe("850 ms");
    expect(formatAge(61_000)).toBe("1 min 1 s");
    expect(formatAge(3_700_000)).toBe("1 h 1 min");
  });
});
