// The fake Gemini API now ships as the offline model's server (server/models/): this path stays for tests.
export * from "../../server/models/gemini-api";
