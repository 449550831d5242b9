import { RangeSetBuilder, type Extension } from '@codemirror/state';
import { Decoration, EditorView, WidgetType } from '@codemirror/view';
import type { DiffBlock } from '../../shared/diff/diffBlocks.js';
import { lineStarts } from './diffChanges.js';

// "Restore this change" above each changed block of a diff, in the editor that holds the file
// on disk (the right side, or the one inline editor): a real button, so it is in the tab order
// and read by name. Clicking it hands the block to the caller, who writes it back.

export interface BlockAction {
  label: string;
  title: string;
  run: (block: DiffBlock, index: number) => void;
}

class BlockButton extends WidgetType {
  constructor(
    readonly block: DiffBlock,
    readonly index: number,
    readonly action: BlockAction,
  ) {
    super();
  }

  override eq(other: BlockButton): boolean {
    return other.index === this.index && other.block === this.block && other.action === this.action;
  }

  toDOM(): HTMLElement {
    const bar = document.createElement('div');
    bar.className = 'cm-block-action';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'cm-block-action-button';
    button.textContent = this.action.label;
    button.title = this.action.title;
    button.dataset.block = String(this.index);
    button.addEventListener('click', () => this.action.run(this.block, this.index));
    bar.append(button);
    return bar;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

export function blockActions(blocks: readonly DiffBlock[], afterLines: readonly string[], action: BlockAction): Extension {
  const starts = lineStarts(afterLines);
  const builder = new RangeSetBuilder<Decoration>();
  blocks.forEach((block, index) => {
    // Above the block's first line; a block that only removed lines sits where they were.
    const at = Math.min(starts[block.bStart] ?? 0, starts.at(-1) ?? 0);
    builder.add(at, at, Decoration.widget({ widget: new BlockButton(block, index, action), block: true, side: -1 }));
  });
  return EditorView.decorations.of(builder.finish());
}
