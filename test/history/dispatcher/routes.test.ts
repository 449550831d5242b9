import { describe, expect, it } from 'vitest';
import { CALL_NAMES } from '../../../shared/contract.js';
import { ROUTES, type Routes } from '../../../electron/history/dispatcher/routes.js';

// The route table is total: a call in the contract without its route is a compile error (checked
// by `npm run typecheck` through the expect-error below), and the table names exactly the calls.

describe('the route table', () => {
  it('has one route for every call of the contract, and nothing else', () => {
    const { log: _dropped, ...withoutLog } = ROUTES;
    // @ts-expect-error a table missing a route (here: log) is not a route table
    const incomplete: Routes = withoutLog;
    expect(Object.keys(incomplete)).not.toContain('log');
    expect(Object.keys(ROUTES).sort()).toEqual([...CALL_NAMES].sort());
    for (const name of CALL_NAMES) expect(typeof ROUTES[name], name).toBe('function');
  });
});
