"use client";
/**
 * What the conversation's tab can still do: "live" (its agent runs: what waits
 * is answered in the card below the turn), "stopped" (a live tab whose agent
 * exited: what looked open ended without an answer, and says so), or
 * "read-only" (a transcript: nothing is answered here).
 */
import { createContext, useContext } from "react";

export type LiveState = "live" | "stopped" | "read-only";

export const LiveStateContext = createContext<LiveState>("read-only");
export const useLiveState = () => useContext(LiveStateContext);
