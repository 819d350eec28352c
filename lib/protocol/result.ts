/**
 * The one shape for "a value or the reason there is none", used by lib/ and server/.
 * On the wire (Socket.IO acks, HTTP bodies) the value's fields sit beside `ok` instead:
 * `Flat` (lib/contracts/wire.ts's `Ack`), so clients read `res.agent`, not `res.value.agent`.
 */
export type Failure<E = string> = { ok: false; error: E };
export type Result<T, E = string> = { ok: true; value: T } | Failure<E>;
export type Flat<T extends object, E = string> = ({ ok: true } & T) | Failure<E>;

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const fail = <E>(error: E): Failure<E> => ({ ok: false, error });
