/**
 * The reference point for relay throughput: a bare forwarder that emits
 * every stdout line of the agent as its own socket.io event. No batching, no
 * classification, no recording. `relay-overhead` runs it in its own process and
 * reports its rate next to the relay's.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { execa } from "execa";
import { Server } from "socket.io";
import { LineSplitter } from "../lib/protocol/ndjson";

const [command, ...args] = process.argv.slice(2);
const http = createServer();
const io = new Server(http);
io.on("connection", (socket) => {
  socket.once("go", () => {
    const child = execa(command!, args, { stdin: "pipe", buffer: false, reject: false });
    const splitter = new LineSplitter();
    child.stdout.on("data", (chunk: Buffer) => {
      for (const e of splitter.push(chunk)) if (e.type === "line") socket.emit("line", e.text);
    });
    child.stdin.write("go\n");
    socket.once("disconnect", () => child.kill());
  });
});
http.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${(http.address() as AddressInfo).port}`));
process.once("SIGTERM", () => process.exit(0));
