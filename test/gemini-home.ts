// Shared with the offline model (server/models/): this path stays for tests.
export * from "../server/models/gemini-home";
