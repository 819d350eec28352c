/** The base of the page's stores: one immutable snapshot for useSyncExternalStore, replaced on every change. */
export class SnapshotStore<S extends object> {
  protected readonly listeners = new Set<() => void>();

  constructor(protected snapshot: S) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): S => this.snapshot;

  protected set(patch: Partial<S>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    this.changed();
    for (const listener of this.listeners) listener();
  }

  /** Runs after every change, before the listeners (a store that persists itself does it here). */
  protected changed(): void {}
}
