import type { RecordedGroup, RecordedProject, RecordingReport } from '../../history/recorder/recordAll.js';
import { describeChangeGroup } from './results.js';

// The lines of `watch --all`: each change group and each project's state, naming its project.

export function describeRecordedGroup(project: RecordedProject, group: RecordedGroup): string {
  const line = describeChangeGroup(group).trimEnd();
  return `${project.root}: ${line}${group.label ? ` · ${group.label}` : ''}\n`;
}

export function describeRecording(report: RecordingReport): string {
  const { root } = report;
  switch (report.state) {
    case 'recording':
      return `Recording ${root}\n`;
    case 'back':
      return `${root} is back: recording it again\n`;
    case 'rescanning':
      return `${report.detail}\n`;
    case 'gone':
      return `${root} is gone: not recording it until it is back\n`;
    case 'moved':
      return `Another folder is at ${root}: not recording it until the project's own folder is back\n`;
    case 'forgotten':
      return `${root} was removed from the known projects: no longer recording it\n`;
    case 'uncopied':
      return `${root} has no history yet (its first copy did not finish): hindsight open ${root} copies it\n`;
    case 'failed':
      return `Cannot record ${root}: ${report.detail}\n`;
  }
}
