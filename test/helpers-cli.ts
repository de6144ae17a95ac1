/** Runs the CLI in-process, collecting what it writes, line by line. */
import { main } from '../src/cli/main.js';
import type { CliIo } from '../src/cli/io.js';

export async function runCli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(...l.split('\n')), columns: 100, errIsTty: false };
  return { code: await main(argv, io), out, err };
}
