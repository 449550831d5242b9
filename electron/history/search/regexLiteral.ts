// The longest piece of plain text every match of a regular expression must contain, so the
// trigram index can narrow a regex search to the blobs holding it. Conservative: anything it does
// not understand ends the current piece, and a top-level alternation has no required text at all
// (null: the search reads every candidate instead).

const CLASS_ESCAPES = new Set('dDwWsSbBnrtfv0123456789cxukpP');

export function requiredLiteral(source: string): string | null {
  const pieces: string[] = [];
  let run = '';
  const end = () => {
    if (run) pieces.push(run);
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '|') return null;
    if (c === '\\') {
      const next = source[i + 1];
      i++;
      if (next === undefined || CLASS_ESCAPES.has(next)) {
        end();
        if (next === 'c' || next === 'x' || next === 'u' || next === 'k' || next === 'p' || next === 'P') i = skipEscapeTail(source, i);
        i = quantified(source, i, () => undefined, end);
        continue;
      }
      run += next;
      i = quantified(source, i, () => (run = run.slice(0, -1)), end);
      continue;
    }
    if (c === '[') {
      end();
      i = quantified(source, closingBracket(source, i), () => undefined, end);
      continue;
    }
    if (c === '(') {
      const close = closingParen(source, i);
      if (close < 0) return null;
      // An alternation inside a group still leaves the text around the group required.
      end();
      i = quantified(source, close, () => undefined, end);
      continue;
    }
    if (c === '.' || c === '^' || c === '$' || c === ')') {
      end();
      i = quantified(source, i, () => undefined, end);
      continue;
    }
    if (c === '*' || c === '+' || c === '?' || c === '{') {
      end();
      continue;
    }
    run += c;
    i = quantified(source, i, () => (run = run.slice(0, -1)), end);
  }
  end();
  let best: string | null = null;
  for (const piece of pieces) if (best === null || [...piece].length > [...best].length) best = piece;
  return best;
}

/**
 * Looks at what follows the atom ending at `at`: an optional quantifier (?, *, {0,...}) makes the
 * atom optional (`drop` takes it back out of the piece); a repeating one (+, {n,...}) keeps it but
 * ends the piece. Answers the index of the last character consumed.
 */
function quantified(source: string, at: number, drop: () => void, end: () => void): number {
  const q = source[at + 1];
  let i = at;
  if (q === '?' || q === '*') {
    drop();
    end();
    i = at + 1;
  } else if (q === '+') {
    end();
    i = at + 1;
  } else if (q === '{') {
    const m = /^\{(\d+)(,\d*)?\}/.exec(source.slice(at + 1));
    if (!m) return at;
    if (Number(m[1]) === 0) drop();
    end();
    i = at + m[0].length;
  } else return at;
  if (source[i + 1] === '?') i++; // lazy
  return i;
}

function closingBracket(source: string, open: number): number {
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']' && i > open + 1) return i;
  }
  return source.length - 1;
}

function closingParen(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') i = closingBracket(source, i);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** The rest of \xHH, \uHHHH, \u{...}, \cX, \k<name>, \p{...}. */
function skipEscapeTail(source: string, at: number): number {
  const kind = source[at];
  const rest = source.slice(at + 1);
  const m =
    kind === 'x'
      ? /^[0-9a-fA-F]{2}/.exec(rest)
      : kind === 'u'
        ? /^(\{[0-9a-fA-F]+\}|[0-9a-fA-F]{4})/.exec(rest)
        : kind === 'c'
          ? /^[A-Za-z]/.exec(rest)
          : kind === 'k'
            ? /^<[^>]*>/.exec(rest)
            : /^\{[^}]*\}/.exec(rest);
  return at + (m ? m[0].length : 0);
}
