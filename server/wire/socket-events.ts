/**
 * One way to serve a Socket.IO event: parse its payload with its schema, run the
 * handler, acknowledge with what it returns (or, if it throws, what server/relay-failure.ts
 * lets the client read), and refuse any event nobody registered.
 */
import type { Socket } from "socket.io";
import type { z } from "zod";
import { describeIssues } from "../../lib/protocol/contract";
import { invalidPayload, type Ack } from "../../lib/contracts/wire";
import { failureOf } from "../relay-failure";

type AnyAck = (res: Ack<object>) => void;

/** Socket.IO passes whatever the client sent; take the ack only if it is one. */
function splitArgs(args: unknown[]): { payload: unknown; ack: AnyAck } {
  const last = args.at(-1);
  if (typeof last === "function") return { payload: args.length > 1 ? args[0] : undefined, ack: last as AnyAck };
  return { payload: args[0], ack: () => {} };
}

export interface SocketEvents {
  on<S extends z.ZodType>(
    event: string,
    schema: S,
    handler: (payload: z.output<S>) => Ack<object> | Promise<Ack<object>>,
  ): void;
  /** Answers every event not registered with `on` by `invalid_payload`. */
  refuseUnknown(): void;
}

// Typed loosely: each namespace has its own event maps, and the schema is what checks the payload.
export function socketEvents(socket: Pick<Socket, "on" | "onAny">): SocketEvents {
  const known = new Set<string>();
  return {
    on(event, schema, handler) {
      known.add(event);
      socket.on(event, (...args: unknown[]) => {
        const { payload, ack } = splitArgs(args);
        const parsed = schema.safeParse(payload);
        if (!parsed.success) return ack(invalidPayload(`${event}: ${describeIssues(parsed.error)}`));
        const failed = (err: unknown) => ack({ ok: false, error: failureOf(err, event) });
        let answer: Ack<object> | Promise<Ack<object>>;
        try {
          answer = handler(parsed.data);
        } catch (err) {
          return failed(err);
        }
        if (!(answer instanceof Promise)) return ack(answer);
        answer.then(ack, failed);
      });
    },
    refuseUnknown() {
      socket.onAny((event: string, ...args: unknown[]) => {
        if (!known.has(event)) splitArgs(args).ack(invalidPayload(`unknown event: ${String(event).slice(0, 100)}`));
      });
    },
  };
}
