import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ProfileDetails } from "@/lib/contracts/wire";
import { ProfileOptions } from "./ComparePage";

const profile = (p: Partial<ProfileDetails> & { name: string }): ProfileDetails => ({
  command: p.name,
  args: [],
  options: [],
  available: true,
  ...p,
});

describe("Side by side's profile choices", () => {
  it("offers a profile that cannot run here disabled, saying why, and names one without credentials", () => {
    render(
      <select aria-label="A profile">
        <ProfileOptions
          profiles={[
            profile({ name: "gemini", credentialsMissing: "No Gemini credentials" }),
            profile({ name: "missing", available: false }),
            profile({ name: "replay:rec", unavailable: "still recording" }),
            profile({ name: "gemini-offline" }),
          ]}
        />
      </select>,
    );
    const option = (name: string) => screen.getAllByRole<HTMLOptionElement>("option").find((o) => o.value === name)!;
    expect(option("missing").disabled).toBe(true);
    expect(option("missing").textContent).toBe("missing (not found here)");
    expect(option("replay:rec").disabled).toBe(true);
    expect(option("gemini").disabled).toBe(false);
    expect(option("gemini").textContent).toBe("gemini (no credentials)");
    expect(option("gemini-offline").textContent).toBe("gemini-offline");
  });
});
