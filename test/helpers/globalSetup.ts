// Tests run the engine from its TypeScript sources, but the copy workers and the CLI child
// processes run built files: build them once before any test starts.
export default async function setup(): Promise<void> {
  // @ts-expect-error the build script is plain JavaScript without types
  const { buildCli } = await import('../../scripts/build-cli.mjs');
  await buildCli();
}
