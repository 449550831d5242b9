import { sweepProjects } from '../../history/config/startupSweep.js';
import { requirePositionals, writeJson, type Command } from '../command.js';
import { printProjects } from '../format/listings.js';

export const projectsCommand: Command = {
  name: 'projects',
  usage: 'projects [--check]',
  summary: 'List the known projects from config.json (--check: look at every folder first and record what changed).',
  flags: { check: { type: 'boolean' } },
  async run(ctx) {
    requirePositionals(ctx, []);
    const config = ctx.engine().config;
    if (ctx.flags.check) await sweepProjects(config, { signal: ctx.signal });
    const { projects } = config.requireConfig();
    if (ctx.json) return writeJson(ctx, projects);
    printProjects(ctx.out, projects);
  },
};
