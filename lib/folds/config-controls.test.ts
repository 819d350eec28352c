import { describe, expect, it } from "vitest";
import {
  MAX_CHOICES,
  MAX_LABEL,
  MAX_OPTIONS,
  sessionControls,
  setConfigRequest,
  setModelRequest,
} from "./config-controls";

describe("config controls", () => {
  const options = [
    {
      id: "model",
      name: "Model",
      type: "select",
      currentValue: "pro",
      options: [
        { value: "auto", name: "Auto" },
        { group: "g", name: "Gemini", options: [{ value: "pro", name: "Pro", description: "big" }] },
      ],
    },
    { id: "yolo", name: "Auto-approve", type: "boolean", currentValue: false },
    { id: "weird", name: "Weird", type: "slider", currentValue: 3 },
    { id: "bad", name: "Bad bool", type: "boolean", currentValue: "yes" },
    "not an option",
  ];

  it("reads select (groups flattened) and boolean options; says which it skipped and why", () => {
    const c = sessionControls({ configOptions: options });
    expect(c.config).toEqual([
      {
        kind: "select",
        id: "model",
        name: "Model",
        current: "pro",
        currentUnknown: false,
        choices: [
          { value: "auto", name: "Auto" },
          { value: "pro", name: "Pro", group: "Gemini", description: "big" },
        ],
      },
      { kind: "boolean", id: "yolo", name: "Auto-approve", current: false },
    ]);
    expect(c.skipped).toEqual([
      'Weird: type "slider" is not select or boolean',
      "Bad bool: boolean option without a boolean currentValue",
      "an option that is not an object",
    ]);
  });

  it("reads the v2 draft's configId as the option's id", () => {
    const c = sessionControls({
      configOptions: [{ configId: "yolo", name: "Auto-approve", type: "boolean", currentValue: true }],
    });
    expect(c.config).toEqual([{ kind: "boolean", id: "yolo", name: "Auto-approve", current: true }]);
  });

  it("bounds lists and labels, and keeps a current value that is not a choice visible", () => {
    const big = {
      id: "x",
      name: "n".repeat(500),
      type: "select",
      currentValue: "gone",
      options: Array.from({ length: MAX_CHOICES + 50 }, (_, i) => ({ value: `v${i}` })),
    };
    const c = sessionControls({ configOptions: Array.from({ length: MAX_OPTIONS + 3 }, () => big) });
    expect(c.config.length).toBe(MAX_OPTIONS);
    const first = c.config[0]!;
    expect(first.kind === "select" && first.choices.length).toBe(MAX_CHOICES);
    expect(first.name.length).toBe(MAX_LABEL + 1);
    expect(first.kind === "select" && first.currentUnknown).toBe(true);
    expect(c.skipped[0]).toMatch(/3 options past/);
  });

  it("reads modes and legacy models, and builds the requests", () => {
    const c = sessionControls({
      availableModes: [{ id: "default", name: "Default" }, { name: "no id" }],
      currentModeId: "default",
      models: { currentModelId: "m1", availableModels: [{ modelId: "m1", name: "One" }] },
    });
    expect(c.modes).toEqual({ current: "default", choices: [{ value: "default", name: "Default" }] });
    expect(c.models).toEqual({ current: "m1", choices: [{ value: "m1", name: "One" }] });
    const [select, bool] = sessionControls({ configOptions: options }).config;
    expect(setConfigRequest("s1", select!, "auto").params).toEqual({
      sessionId: "s1",
      configId: "model",
      value: "auto",
    });
    expect(setConfigRequest("s1", bool!, true).params).toEqual({
      sessionId: "s1",
      configId: "yolo",
      type: "boolean",
      value: true,
    });
    expect(setModelRequest("s1", "m1")).toEqual({
      method: "session/set_model",
      params: { sessionId: "s1", modelId: "m1" },
    });
  });
});
