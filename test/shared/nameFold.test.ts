import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { foldName, sameName } from '../../shared/nameFold.js';

// The fold is checked against another implementation of Unicode's case folding and normalization:
// Python's str.casefold and unicodedata, on names generated with a fixed seed (base names from many
// scripts, each spelled again with its letters' case changed and in the other normalization). Two
// names must be one under the product's fold exactly when they are one under Python's. Characters
// Python's Unicode tables do not know yet (Node's ICU is newer) are left out of the generation.

const PYTHON = '/usr/bin/python3';

const GENERATE = String.raw`
import json, random, sys, unicodedata
random.seed(40)
def fold(s):
    return unicodedata.normalize('NFD', unicodedata.normalize('NFD', s).casefold())
pool = [chr(c) for c in list(range(0x20, 0x7f)) + list(range(0xa0, 0x2000)) + list(range(0x2c00, 0x2e00))
        + list(range(0xa640, 0xa800)) + list(range(0xab70, 0xabc0)) + list(range(0xfb00, 0xfb07))
        + list(range(0x10400, 0x10450)) + list(range(0x1e900, 0x1e944))
        if unicodedata.category(chr(c)) not in ('Cn', 'Cs', 'Co', 'Cc') and chr(c) != '/']
names = []
for _ in range(3000):
    base = ''.join(random.choice(pool) for _ in range(random.randint(1, 6)))
    names.append(base)
    for _ in range(2):
        spelled = ''.join(random.choice([c, c.upper(), c.lower(), c.casefold(), c.title()]) for c in base)
        names.append(unicodedata.normalize(random.choice(['NFC', 'NFD', 'NFKC', 'NFKD']), spelled))
json.dump([[n, fold(n)] for n in names], sys.stdout)
`;

describe.skipIf(!existsSync(PYTHON))(`foldName${existsSync(PYTHON) ? '' : ` (skipped: no ${PYTHON} to compare with)`}`, () => {
  it("joins exactly the names Python's casefold and NFD join", () => {
    const pairs = JSON.parse(execFileSync(PYTHON, ['-c', GENERATE], { maxBuffer: 64 << 20 }).toString('utf8')) as [string, string][];
    const rules = { foldsCase: true, foldsNormalization: true };
    const productOf = new Map<string, string>();
    const pythonOf = new Map<string, string>();
    const disagreements: string[] = [];
    for (const [name, reference] of pairs) {
      const mine = foldName(name, rules);
      const seenMine = pythonOf.get(mine);
      const seenReference = productOf.get(reference);
      if ((seenMine !== undefined && seenMine !== reference) || (seenReference !== undefined && seenReference !== mine)) {
        disagreements.push(JSON.stringify(name));
      }
      pythonOf.set(mine, reference);
      productOf.set(reference, mine);
    }
    expect(pairs.length).toBe(9000);
    // Many of the generated spellings are one name under the fold: the check is not vacuous.
    expect(productOf.size).toBeLessThan(pairs.length / 2);
    expect(disagreements).toEqual([]);
  });

  it('folds only what the rules say', () => {
    const nfc = 'Café';
    const nfd = 'Cafe\u0301';
    expect(sameName(nfc, 'CAFÉ', { foldsCase: true, foldsNormalization: false })).toBe(true);
    expect(sameName(nfc, nfd, { foldsCase: true, foldsNormalization: false })).toBe(false);
    expect(sameName(nfc, nfd, { foldsCase: false, foldsNormalization: true })).toBe(true);
    expect(sameName(nfc, 'café', { foldsCase: false, foldsNormalization: true })).toBe(false);
    expect(sameName(nfc, 'café', { foldsCase: false, foldsNormalization: false })).toBe(false);
  });
});
