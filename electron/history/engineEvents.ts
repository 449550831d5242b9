import type { EngineEvent } from '../../shared/contract.js';

// The engine's one source of events: a snapshot recorded (fired by the index where the snapshot
// is committed), progress of long work, a project's folder changing state, a failure outside any
// call (a watcher). Callers subscribe instead of rebuilding what happened from the index; the
// dispatcher forwards every event unchanged to each window. The event names and payloads are the
// contract's (shared/contract.ts, EVENTS).

export type EngineListener = (event: EngineEvent) => void;

export class EngineEvents {
  private readonly listeners = new Set<EngineListener>();

  /** Returns the function that unsubscribes. */
  on(listener: EngineListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: EngineEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A subscriber whose transport broke must not stop the others, or the work that fired it.
      }
    }
  }
}
