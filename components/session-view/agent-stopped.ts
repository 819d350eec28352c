"use client";
/**
 * True in a live tab whose agent has exited: what still looked open in its
 * conversation (a turn, a question) has ended without an answer, and says so.
 */
import { createContext, useContext } from "react";

export const AgentStoppedContext = createContext(false);
export const useAgentStopped = () => useContext(AgentStoppedContext);
