/**
 * A "replay:<transcript>" agent: speaks the recording's protocol (its header's) on stdio by playing
 * the agent side of a recorded transcript (lib/features/library/recorded-agent.ts). Run by the relay like any
 * agent: `node --import tsx server/agents/replay-agent.ts FILE [--speed 1|10|instant]`.
 */
import { readFileSync } from "node:fs";
import { LineSplitter } from "../../lib/protocol/ndjson";
import { RecordedAgent, type Emit } from "../../lib/features/library/recorded-agent";
import { parseTranscript } from "../../lib/contracts/transcript";
import { forProtocol, protocolOf } from "../../lib/protocol/protocols";

const MAX_DELAY_MS = 5_000;

function parseSpeed(value: string | undefined): number {
  if (value === undefined || value === "instant") return value === "instant" ? Infinity : 1;
  const speed = Number(value);
  if (!(speed > 0)) throw new Error(`--speed must be a positive number or "instant", got ${value}`);
  return speed;
}

const [file, flag, speedArg] = process.argv.slice(2);
if (!file || (flag !== undefined && flag !== "--speed")) {
  process.stderr.write("usage: replay-agent FILE [--speed 1|10|instant]\n");
  process.exit(2);
}
const speed = parseSpeed(speedArg);
const transcript = parseTranscript(readFileSync(file, "utf8"));
const protocol = protocolOf(transcript.header.agent);
const agent = new RecordedAgent(transcript.frames, protocol);
process.stderr.write(
  `replaying ${transcript.frames.length} recorded frames of ${transcript.header.agent.profile} at ${speed === Infinity ? "instant" : `${speed}x`}\n`,
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let chain: Promise<void> = Promise.resolve();

async function emit(lines: Emit[]): Promise<void> {
  for (const { delayMs, line } of lines) {
    const wait = Math.min(delayMs / speed, MAX_DELAY_MS);
    if (wait >= 1) await sleep(wait);
    process.stdout.write(`${line}\n`);
  }
}

// One message at a time, in order: a turn finishes playing before the next message is handled.
const enqueue = (work: () => Emit[]) => {
  chain = chain.then(() => emit(work()));
};

enqueue(() => agent.start());
const splitter = new LineSplitter();
process.stdin.on("data", (chunk: Buffer) => {
  for (const event of splitter.push(chunk)) {
    if (event.type !== "line") continue;
    let message: unknown;
    try {
      message = JSON.parse(event.text);
    } catch {
      enqueue(() => [
        {
          delayMs: 0,
          line: JSON.stringify(
            forProtocol(protocol, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }),
          ),
        },
      ]);
      continue;
    }
    enqueue(() => agent.receive(message));
  }
});
process.stdin.on("end", () => void chain.then(() => process.exit(0)));
