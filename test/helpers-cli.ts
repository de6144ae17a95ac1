import { main } from '../src/cli/main.js';
import type { CliIo } from '../src/cli/io.js';

/** Runs the CLI in-process: the exit code and stdout / stderr split into lines. */
export async function runCli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(...l.split('\n')), columns: 100, errIsTty: false };
  return { code: await main(argv, io), out, err };
}
