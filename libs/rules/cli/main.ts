/**
 * `mizerka replay FILE` (FILE `-` = standard input): prints the outcome JSON of a
 * mizerka-record/1 file. Exit 0 on success; 1 on a bad record or an illegal move (nothing on
 * stdout, one line on stderr naming deal, move and rule); 2 on a usage error.
 * Outside the pure core: this file may use Node's I/O.
 */
import { readFile } from 'node:fs/promises';
import { formatRecordError, parseRecord, replay } from '../src/index.js';

const USAGE = 'usage: mizerka replay FILE   (FILE "-" reads standard input)';

async function readInput(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE + '\n');
    process.exitCode = 0;
    return;
  }
  if (command !== 'replay' || rest.length !== 1) {
    process.stderr.write(USAGE + '\n');
    process.exitCode = 2;
    return;
  }
  let text: string;
  try {
    text = await readInput(rest[0]);
  } catch (e) {
    process.stderr.write(`mizerka: cannot read ${rest[0]}: ${(e as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const parsed = parseRecord(text);
  const result = parsed.ok ? replay(parsed.value) : parsed;
  if (!result.ok) {
    process.stderr.write(`mizerka: ${formatRecordError(result.error)}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(JSON.stringify(result.value.outcome, null, 2) + '\n');
  process.exitCode = 0;
}
