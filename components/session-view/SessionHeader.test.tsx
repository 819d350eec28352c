import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { renderInTab, runningSession, withoutLayout } from "@/test/component-kit";
import { SessionView } from "./SessionView";

beforeAll(withoutLayout);

const SESSION = {
  sessionId: "s1",
  modes: {
    currentModeId: "ask",
    availableModes: [
      { id: "ask", name: "Ask" },
      { id: "code", name: "Code" },
    ],
  },
  models: {
    currentModelId: "m1",
    availableModels: [
      { modelId: "m1", name: "One" },
      { modelId: "m2", name: "Two" },
    ],
  },
  configOptions: [
    {
      id: "model",
      name: "Model",
      type: "select",
      currentValue: "gone",
      options: [
        { value: "auto", name: "Auto" },
        { value: "fast", name: "Fast" },
      ],
    },
  ],
};

/** A session the agent opened with modes, a select config option and legacy models. */
function openSession(result: object = SESSION) {
  const { store, relay } = runningSession();
  act(() =>
    relay.fire("frames", [
      relay.frame("to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
      relay.frame("from-agent", { id: 1, result }),
    ]),
  );
  renderInTab(<SessionView onHighlight={() => {}} onShowFrames={() => {}} />, store);
  const settings = screen.getByTestId("session-settings");
  const select = (id: string) => within(settings).getByTestId<HTMLSelectElement>(id);
  /** The requests the header sent, method and params. */
  const sent = () =>
    relay.sent.map(({ frame }) => {
      const { method, params } = frame as { method: string; params: unknown };
      return { method, params };
    });
  /** The relay sends the header's request `i` (acked with its seq), and the agent answers it. */
  const answer = async (i: number) => {
    const { frame, ack } = relay.sent[i]!;
    const wire = relay.frame("to-agent", frame as object);
    await act(async () => ack({ ok: true, seq: wire.seq }));
    act(() =>
      relay.fire("frames", [wire, relay.frame("from-agent", { id: (frame as { id: number }).id, result: {} })]),
    );
  };
  return { settings, select, sent, answer };
}

describe("SessionHeader's settings", () => {
  it("shows the mode, each config option and the legacy model as a select of the agent's choices", () => {
    const { settings, select } = openSession();
    expect(within(settings).getByTestId("mode-control").textContent).toContain("mode");
    expect(select("mode-select").value).toBe("ask");
    expect([...select("mode-select").options].map((o) => o.textContent)).toEqual(["Ask", "Code"]);
    expect(within(settings).getByTestId("config-control").dataset.configId).toBe("model");
    // A current value the agent does not list is shown as such, not dropped.
    expect(select("config-select-model").value).toBe("gone");
    expect([...select("config-select-model").options].map((o) => o.textContent)).toEqual([
      "gone (not listed)",
      "Auto",
      "Fast",
    ]);
    expect(within(settings).getByTestId("legacy-model-control").textContent).toContain("model (legacy)");
    expect(select("legacy-model-select").value).toBe("m1");
  });

  it("shows the mode and the legacy model as text when the agent names them but offers no choice", () => {
    const { settings } = openSession({
      ...SESSION,
      modes: { ...SESSION.modes, availableModes: [] },
      models: { ...SESSION.models, availableModels: [] },
      configOptions: [],
    });
    expect(settings.textContent).toBe("mode askmodel m1");
    expect(within(settings).queryByRole("combobox")).toBeNull();
  });

  it("sends each change as its method, and disables the selects until the agent answers", async () => {
    const { select, sent, answer } = openSession();
    fireEvent.change(select("mode-select"), { target: { value: "code" } });
    expect(sent()).toEqual([{ method: "session/set_mode", params: { sessionId: "s1", modeId: "code" } }]);
    expect(select("config-select-model").disabled).toBe(true);
    await answer(0);
    await waitFor(() => expect(select("config-select-model").disabled).toBe(false));
    fireEvent.change(select("config-select-model"), { target: { value: "fast" } });
    expect(sent()[1]).toEqual({
      method: "session/set_config_option",
      params: { sessionId: "s1", configId: "model", value: "fast" },
    });
    await answer(1);
    await waitFor(() => expect(select("legacy-model-select").disabled).toBe(false));
    fireEvent.change(select("legacy-model-select"), { target: { value: "m2" } });
    expect(sent()[2]).toEqual({ method: "session/set_model", params: { sessionId: "s1", modelId: "m2" } });
  });
});

describe("SessionHeader's session picker", () => {
  it("counts each session's turns in words: 1 turn, 0 turns", () => {
    const { store, relay } = runningSession();
    act(() =>
      relay.fire("frames", [
        relay.frame("to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
        relay.frame("from-agent", { id: 1, result: { sessionId: "s1" } }),
        relay.frame("to-agent", { id: 2, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
        relay.frame("from-agent", { id: 2, result: { sessionId: "s2" } }),
        relay.frame("to-agent", {
          id: 3,
          method: "session/prompt",
          params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] },
        }),
        relay.frame("from-agent", { id: 3, result: { stopReason: "end_turn" } }),
      ]),
    );
    renderInTab(<SessionView onHighlight={() => {}} onShowFrames={() => {}} />, store);
    const options = [...screen.getByTestId<HTMLSelectElement>("session-picker").options].map((o) => o.textContent);
    expect(options).toHaveLength(2);
    expect(options[0]).toMatch(/^session 1 · .* · 1 turn$/);
    expect(options[1]).toMatch(/^session 2 · .* · 0 turns$/);
  });
});
