import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ProfileDetails } from "@/lib/contracts/wire";
import { ProfileTable } from "./ProfileTable";

const profile = (p: Partial<ProfileDetails> & { name: string; command: string }): ProfileDetails => ({
  args: [],
  options: [],
  available: true,
  ...p,
});

function table(profiles: ProfileDetails[]) {
  render(<ProfileTable profiles={profiles} onProbe={() => {}} selected={new Set()} onSelect={() => {}} />);
  return (name: string) =>
    within(screen.getByTestId("profile-table"))
      .getAllByTestId("profile-row")
      .find((r) => r.dataset.name === name)!;
}

describe("ProfileTable", () => {
  it("says where a bare command resolves, and does not repeat an absolute one", () => {
    const row = table([
      profile({ name: "abs", command: "/opt/agent/bin/agent", args: ["--acp"], resolved: "/opt/agent/bin/agent" }),
      profile({ name: "bare", command: "sh", args: ["-c", "cat"], resolved: "/usr/bin/sh" }),
    ]);
    expect(within(row("abs")).queryByTestId("profile-resolved")).toBeNull();
    expect(row("abs").textContent.split("/opt/agent/bin/agent").length - 1).toBe(1);
    expect(within(row("bare")).getByTestId("profile-resolved").textContent).toContain("/usr/bin/sh");
  });

  it("says availability in words, not by a coloured mark alone", () => {
    const row = table([
      profile({ name: "ok", command: "/bin/agent" }),
      profile({ name: "nokey", command: "/bin/gemini", credentialsMissing: "No Gemini credentials" }),
      profile({ name: "gone", command: "/nowhere", available: false }),
    ]);
    const said = (name: string) => within(row(name)).getByTestId("profile-available").textContent;
    expect(said("ok")).toBe("✓ installed");
    expect(said("nokey")).toBe("installed, no credentials");
    expect(said("gone")).toBe("missing: /nowhere not found on this machine");
  });
});
