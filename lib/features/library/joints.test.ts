import { describe, expect, it } from "vitest";
import { joints, NO_STREAM, streamStep, tailOf } from "./joints";

describe("a streamed chunk's joints", () => {
  it("keeps a message's last whole words and the word its end cuts", () => {
    expect(tailOf("one two three four fi")).toBe("three four fi");
    expect(tailOf("one two three four ")).toBe("two three four ");
    expect(tailOf("Zürich café crème brû")).toBe("café crème brû");
    expect(tailOf("x".repeat(300))).toHaveLength(256);
  });

  it("joins the word an edge cuts, and the words on both sides of it", () => {
    expect(joints("alpha bravo char", "lie delta echo foxtrot")).toEqual({
      split: "charlie",
      joints: ["bravo charlie delta echo", "alpha bravo charlie delta echo"],
    });
    expect(joints("foxtrot golf ", "hotel india juliet")).toEqual({
      split: "",
      joints: ["golf hotel india", "foxtrot golf hotel india"],
    });
    // Only the cut word before the edge: no whole word to join.
    expect(joints("char", "lie delta")).toEqual({ split: "charlie", joints: ["", ""] });
    expect(joints("", "lie")).toEqual({ split: "", joints: [] });
    expect(joints("alpha ", " ... ")).toEqual({ split: "", joints: [] });
  });

  it("steps a message chunk by chunk; another frame ends it, a line that is no frame does not", () => {
    const chunk = (body: string, stream = "s agent_message_chunk m") => ({ stream, body });
    let step = streamStep(NO_STREAM, chunk("alpha bra"), true);
    expect(step.joined.split).toBe("");
    step = streamStep(step.state, { body: "stderr text" }, false);
    expect(step.state).toEqual({ stream: "s agent_message_chunk m", tail: "alpha bra" });
    step = streamStep(step.state, chunk("vo charlie"), true);
    expect(step.joined).toEqual({ split: "bravo", joints: ["alpha bravo charlie", ""] });
    // Another message's chunk starts over.
    step = streamStep(step.state, chunk("delta", "s agent_thought_chunk m"), true);
    expect(step.joined.split).toBe("");
    expect(step.state.tail).toBe("delta");
    expect(streamStep(step.state, { body: "a request" }, true).state).toEqual(NO_STREAM);
  });
});
