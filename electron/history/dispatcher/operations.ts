import { HindsightError } from '../../../shared/errors.js';

// Long work the caller may cancel, by the operationId it chose. An id is in use only while its
// work runs; reusing a running one is refused so a cancel never hits the wrong work.

export class Operations {
  private readonly running = new Map<string, AbortController>();

  /** Runs `work` under a signal `cancel(operationId)` aborts; without an id it cannot be cancelled. */
  async run<T>(operationId: string | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    if (operationId !== undefined) {
      if (this.running.has(operationId)) {
        throw new HindsightError('BAD_REQUEST', `An operation with id ${operationId} is already running.`, { operationId });
      }
      this.running.set(operationId, controller);
    }
    try {
      return await work(controller.signal);
    } finally {
      if (operationId !== undefined) this.running.delete(operationId);
    }
  }

  cancel(operationId: string): boolean {
    const controller = this.running.get(operationId);
    if (!controller) return false;
    controller.abort(new HindsightError('CANCELLED', 'Cancelled.', { operationId }));
    return true;
  }

  cancelAll(): void {
    for (const id of [...this.running.keys()]) this.cancel(id);
  }
}
