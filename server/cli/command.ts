// What the operator commands of server/cli/ share: their input and output, and how one is run from npm.
import { pathToFileURL } from 'node:url';

/** A command's world: its environment and where it writes; tests hand it their own. */
export interface CommandIo {
  env: Record<string, string | undefined>;
  /** What the command did (standard output). */
  out(line: string): void;
  /** Why it failed (standard error). */
  err(line: string): void;
}

/** A command answers its exit code: 0 when it did what was asked, 1 otherwise (with a line on err saying why). */
export type Command = (io: CommandIo, args: readonly string[]) => Promise<number>;

/**
 * Runs `command` with the process's arguments and environment when `moduleUrl` is the file node was started
 * with (npm run …), and does nothing when a test imports the module.
 */
export function runWhenStarted(moduleUrl: string, command: Command): void {
  const started = process.argv[1];
  if (!started || moduleUrl !== pathToFileURL(started).href) return;
  const io: CommandIo = { env: process.env, out: (line) => console.log(line), err: (line) => console.error(line) };
  command(io, process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
