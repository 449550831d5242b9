import type { TextDiff } from '../../shared/diff/textDiff.js';

// Above a diff: lines added and removed, which change is shown, previous and next change; then
// what is compared. Side by side names each column over its pane; inline says which lines are
// which, since both texts share one column there.

interface DiffHeaderProps {
  layout: 'side' | 'inline';
  diff: TextDiff;
  current: number | null;
  beforeLabel: string;
  afterLabel: string;
  onPrevious: () => void;
  onNext: () => void;
}

const count = new Intl.NumberFormat('en-US');

export function DiffHeader({ layout, diff, current, beforeLabel, afterLabel, onPrevious, onNext }: DiffHeaderProps) {
  const total = diff.hunks.length;
  const hunk = current === null ? null : diff.hunks[current];
  const position = total === 0 ? 'No differences' : hunk ? `Change ${current! + 1} of ${total}` : total === 1 ? '1 change' : `${count.format(total)} changes`;
  const where = hunk ? ` at line ${hunk.bStart + 1}` : '';
  return (
    <div className="diff-header">
      <div className="diff-bar">
        <span className="diff-stat" aria-label={`${count.format(diff.added)} lines added, ${count.format(diff.removed)} lines removed`}>
          <span className="diff-added">+{count.format(diff.added)}</span>
          <span className="diff-removed">−{count.format(diff.removed)}</span>
        </span>
        <span className="diff-position" role="status" aria-live="polite">
          {position}
          <span className="visually-hidden">{where}</span>
        </span>
        <span className="diff-nav">
          <button
            type="button"
            className="icon-button"
            aria-label="Previous change"
            title="Previous change (Shift+F7)"
            aria-keyshortcuts="Shift+F7"
            disabled={total === 0 || current === null || current <= 0}
            onClick={onPrevious}
          >
            <span className="chevron chevron-up" aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label="Next change"
            title="Next change (F7)"
            aria-keyshortcuts="F7"
            disabled={total === 0 || (current !== null && current >= total - 1)}
            onClick={onNext}
          >
            <span className="chevron chevron-down" aria-hidden="true" />
          </button>
        </span>
      </div>
      {layout === 'side' ? (
        <div className="diff-legend diff-legend-side">
          <span>{beforeLabel}</span>
          <span>{afterLabel}</span>
        </div>
      ) : (
        <div className="diff-legend diff-legend-inline">
          <span className="legend-removed">
            <span className="legend-mark" aria-hidden="true">
              −
            </span>
            {beforeLabel}
          </span>
          <span className="legend-added">
            <span className="legend-mark" aria-hidden="true">
              +
            </span>
            {afterLabel}
          </span>
        </div>
      )}
    </div>
  );
}
