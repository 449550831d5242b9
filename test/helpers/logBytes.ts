// A log file's bytes: lines of a running service, deterministic for a seed (compressible, as logs
// are, and varied enough that content-defined chunking finds its cuts).

export function logBytes(seed: number, size: number): Buffer {
  const lines: string[] = [];
  let length = 0;
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  for (let i = 0; length < size; i++) {
    const line = `2026-12-04T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${next() % 1000} INFO request id=${next().toString(16)} path=/api/items/${next() % 5000} status=${[200, 200, 201, 404, 500][next() % 5]} took=${next() % 900}ms\n`;
    lines.push(line);
    length += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, size);
}
