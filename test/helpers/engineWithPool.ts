import { onTestFinished } from 'vitest';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import type { CopyPool } from '../../electron/history/store/copyPool.js';
import { tempDir } from './tempDirs.js';

/** An engine over a fresh data folder, closed with the pool it copies on when the test ends. */
export function engineWith(pool: CopyPool): HistoryEngine {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(async () => {
    engine.close();
    await pool.close();
  });
  return engine;
}
