import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { FrameSequencer } from "@/lib/protocol/frame-sequencer";
import type { FrameCheck } from "@/lib/folds/static-checks";
import { FrameRow } from "./FrameRow";

const seq = new FrameSequencer();
const request = seq.line("to-agent", '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}');
const failed = seq.line("from-agent", '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}');

function row(props: Partial<Parameters<typeof FrameRow>[0]> = {}) {
  const onSelect = vi.fn();
  const view = render(<FrameRow frame={request} selected={false} checks={[]} onSelect={onSelect} top={0} {...props} />);
  return { onSelect, row: screen.getByTestId("frame-row"), ...view };
}

describe("FrameRow", () => {
  it("selects its frame when clicked, and says so to assistive technology", () => {
    const { onSelect, row: r, rerender } = row();
    fireEvent.click(r);
    expect(onSelect).toHaveBeenCalledWith(request.seq);
    expect(r.getAttribute("aria-selected")).toBe("false");
    rerender(<FrameRow frame={request} selected checks={[]} onSelect={onSelect} top={0} />);
    expect(screen.getByTestId("frame-row").getAttribute("aria-selected")).toBe("true");
  });

  it("shows an error response's code and message, and its latency", () => {
    row({ frame: failed });
    const r = screen.getByTestId("frame-row");
    expect(r.dataset.kind).toBe("response");
    expect(r.textContent).toContain("error -32603: boom");
    expect(screen.getByTestId("frame-latency").textContent).not.toBe("");
  });

  it("names its first check and counts the others", () => {
    const checks: FrameCheck[] = [
      { code: "reused-id", message: "id 1 is already in use" },
      { code: "orphan-response", message: "no request has id 1" },
    ];
    row({ checks });
    expect(screen.getByTestId("frame-check").textContent).toBe("reused id +1");
    expect(screen.getByTestId("frame-row").dataset.checks).toBe("reused-id orphan-response");
  });

  it("folding its chunks again does not select the frame", () => {
    const onCollapseFold = vi.fn();
    const { onSelect } = row({ onCollapseFold });
    fireEvent.click(screen.getByTestId("fold-collapse"));
    expect(onCollapseFold).toHaveBeenCalledWith(request.seq);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it("shows a frame's raw text as text, never as markup", () => {
    const hostile = seq.line(
      "from-agent",
      '{"jsonrpc":"2.0","method":"x","params":{"t":"<img src=x onerror=alert(1)>"}}',
    );
    const { container } = row({ frame: hostile });
    expect(container.querySelector("img")).toBeNull();
    expect(screen.getByTestId("frame-row").textContent).toContain("<img src=x onerror=alert(1)>");
  });
});
