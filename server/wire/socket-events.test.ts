import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { TranscriptError } from "../../lib/contracts/transcript";
import type { Ack } from "../../lib/contracts/wire";
import { SpawnError } from "../agents/agent-process";
import { INTERNAL_ERROR, RelayFailure } from "../relay-failure";
import { socketEvents } from "./socket-events";

/** A socket's `on` only: emit calls the handler registered for an event, as Socket.IO does. */
function fakeSocket() {
  const handlers = new Map<string, (...args: unknown[]) => void>();
  const socket = {
    on: (event: string, handler: (...args: unknown[]) => void) => void handlers.set(event, handler),
    onAny: () => {},
  };
  const emit = (event: string) =>
    new Promise<Ack<object>>((resolve) => handlers.get(event)!({}, (answer: Ack<object>) => resolve(answer)));
  return { socket: socket as unknown as Parameters<typeof socketEvents>[0], emit };
}

/** Errors no one raised for the person asking: their words name the relay's files, hosts and code. */
function unexpected(): Error[] {
  const enoent = Object.assign(new Error("ENOENT: no such file or directory, open '/srv/acp/data/x.jsonl'"), {
    code: "ENOENT",
    errno: -2,
    syscall: "open",
  });
  const driver = Object.assign(new Error('password authentication failed for user "acp" at db.internal:5432'), {
    code: "28P01",
    severity: "FATAL",
  });
  return [
    new TypeError("Cannot read properties of undefined (reading 'cwd') at /srv/acp/server/x.ts:12"),
    enoent,
    driver,
  ];
}

describe("socket events' errors", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answer an unexpected error with a fixed message, thrown or rejected, and log it whole", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { socket, emit } = fakeSocket();
    const events = socketEvents(socket);
    const errors = unexpected();
    errors.forEach((err, i) => {
      events.on(`sync${i}`, z.unknown(), () => {
        throw err;
      });
      events.on(`async${i}`, z.unknown(), async () => Promise.reject(err));
    });
    for (let i = 0; i < errors.length; i++)
      for (const event of [`sync${i}`, `async${i}`]) {
        const answer = await emit(event);
        expect(answer).toEqual({ ok: false, error: { code: "internal", message: INTERNAL_ERROR } });
        expect(logged).toHaveBeenLastCalledWith(expect.stringContaining(errors[i]!.message));
        expect(logged).toHaveBeenLastCalledWith(expect.stringContaining(event));
      }
  });

  it("keep the words of an error raised for whoever asked", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { socket, emit } = fakeSocket();
    const events = socketEvents(socket);
    const told: [Error, { code: string; message: string }][] = [
      [new TranscriptError(2, "not JSON"), { code: "internal", message: "line 2: not JSON" }],
      [
        new RelayFailure({ code: "internal", message: "cannot read transcript x from the team library" }),
        { code: "internal", message: "cannot read transcript x from the team library" },
      ],
      [
        new SpawnError({ code: "spawn_failed", message: "Failed to start the ACP agent" }),
        { code: "spawn_failed", message: "Failed to start the ACP agent" },
      ],
    ];
    told.forEach(([err], i) => events.on(`told${i}`, z.unknown(), async () => Promise.reject(err)));
    for (let i = 0; i < told.length; i++) expect(await emit(`told${i}`)).toEqual({ ok: false, error: told[i]![1] });
  });
});
