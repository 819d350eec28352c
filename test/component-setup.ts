/** The components project's setup: each test renders into a fresh document. */
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(cleanup);
