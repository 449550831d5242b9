import { requirePositionals, writeJson, type Command } from '../command.js';
import { printProjects } from '../format/listings.js';

export const projectsCommand: Command = {
  name: 'projects',
  usage: 'projects [--check]',
  summary: 'List the known projects from config.json (--check: look at every folder first and record what changed).',
  flags: { check: { type: 'boolean' } },
  async run(ctx) {
    requirePositionals(ctx, []);
    const engine = ctx.engine();
    // A corrupt or unreadable config.json fails here with its clear error (the viewer gets it from getConfig).
    engine.config.requireConfig();
    const projects = await engine.listProjects({ check: ctx.flags.check === true, signal: ctx.signal });
    if (ctx.json) return writeJson(ctx, projects);
    printProjects(ctx.out, projects);
  },
};
