/**
 * A v2 conversation folded (lib/folds/session-view, which folds v1 and v2): recorded with the v2
 * reference agent in memory (test/v2-recording.ts). The turn ends at state_update idle, not at the
 * prompt's receipt; the tool call is one item, upserted by its id to completed; the cancelled turn
 * ends cancelled; a resume with replayFrom start puts the replay in the session's history.
 */
import { describe, expect, it } from "vitest";
import { recordV2 } from "@/test/v2-recording";
import { reduceFrames } from "../session-view";

describe("the v2 fold", () => {
  it("folds a recorded v2 conversation", async () => {
    const { frames } = await recordV2([]);
    const view = reduceFrames(frames);
    const [session] = Object.values(view.sessions);
    expect(session).toBeDefined();
    const [first, second] = session!.turns;
    expect(first).toMatchObject({ ended: true, endedBy: "state", stopReason: "end_turn" });
    const tools = first!.items.filter((i) => i.type === "tool_call");
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ toolCallId: expect.any(String), status: "completed", title: "Edit notes.txt" });
    // Its permission request (the tool call in a v2 `subject`) is on the same item, answered.
    expect(tools[0]).toMatchObject({ permission: { outcome: { outcome: "selected" } } });
    expect(first!.items.filter((i) => i.type === "unknown")).toEqual([]);
    expect(second).toMatchObject({ ended: true, endedBy: "state", stopReason: "cancelled" });
    expect(session!.history.length).toBeGreaterThan(0);
  }, 30_000);
});
