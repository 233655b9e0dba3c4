// The benchmark's options: node:util parseArgs, one table of what each option means and its
// default (the same table prints --help), values checked. A bad option is a UsageError: exit 2.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PRESETS } from '@mizerka/rules';

export interface Options {
  levels: number[];
  seconds: number;
  warmup: number;
  maxMoves: number;
  commitSeconds: number;
  preset: string;
  inProcess: boolean;
  json: string | null;
  cpuProfDir: string | null;
  /** The server process samples what it allocates and writes the profile into this folder. */
  allocProfDir: string | null;
  serverNodeArgs: string[];
  /** The Node.js binary that runs the server process; null: the one running the benchmark. */
  serverNode: string | null;
  seed: number;
  /** Mean pause of a game between moves (ms): 0 = closed loop, as fast as the server answers. */
  thinkMs: number;
  /** Each level twice: untimed games, then games with a move clock and a webhook endpoint per player. */
  correspondence: boolean;
  /** The move clock of the correspondence run's games (seconds per move). */
  clockSeconds: number;
  /** > 1: compare one server instance with this many (instances.ts), load spread round-robin per request. */
  instances: number;
  /** > 1: also a mode with one server process run with WORKERS=N (main.js, Node's cluster module). */
  workers: number;
  /** GAME_CACHE values to run every instance mode with (with --instances/--workers). */
  gameCache: ('on' | 'off')[];
  /** With --instances: gameLog subscribers spread over the instances, in a run of their own per level. */
  subscribers: number;
  /** Each level again with every request of a seat over its own graphql-ws socket instead of HTTP. */
  ws: boolean;
  /** Moves without expectedVersion. */
  withoutExpectedVersion: boolean;
  /** What makeMove selects: the whole seat view, or only what the player reads to choose its next move. */
  selection: 'full' | 'player';
  /** 'first': only the first of the N instances works jobs (and fans out webhooks); the others run JOB_WORKER=off. */
  jobWorker: 'all' | 'first';
}

export class UsageError extends Error {}

interface Spec {
  type: 'string' | 'boolean';
  short?: string;
  /** What --help shows after the name, e.g. `N,N,…`. */
  value?: string;
  default?: string;
  help: string;
}

/** Every option, in the order --help lists them. */
const SPECS = {
  levels: { type: 'string', value: 'N,N,…', default: '10,100,500', help: 'concurrent games per level, one level after another' },
  seconds: { type: 'string', value: 'S', default: '15', help: 'measured seconds of moves per level (≥ 1)' },
  warmup: { type: 'string', value: 'S', default: '2', help: 'seconds of moves before measuring, per level (≥ 0)' },
  'max-moves': { type: 'string', value: 'N', default: '200000', help: 'stop a level early after this many measured moves (≥ 1)' },
  'commit-seconds': { type: 'string', value: 'S', default: '8', help: 'seconds of bare INSERT commits per level, the floor (≥ 1)' },
  preset: { type: 'string', value: 'NAME', default: 'classic', help: `the games' preset: ${PRESETS.join(', ')}` },
  think: { type: 'string', value: 'MS', default: '0', help: 'mean pause between a game’s moves, ±50 % (0: closed loop)' },
  seed: { type: 'string', value: 'N', default: '1', help: 'seed of the players’ random choices (integer ≥ 0)' },
  correspondence: { type: 'boolean', help: 'each level twice: untimed games, then timed games with a webhook endpoint per player' },
  'clock-seconds': { type: 'string', value: 'S', default: '3600', help: 'with --correspondence: the timed games’ seconds per move (≥ 60)' },
  instances: { type: 'string', value: 'N', default: '1', help: 'N ≥ 2: one instance against N (same DATABASE_URL and REDIS_URL), requests round-robin over them' },
  workers: { type: 'string', value: 'N', default: '1', help: 'N ≥ 2: also one server process with WORKERS=N (needs REDIS_URL)' },
  'game-cache': { type: 'string', value: 'on,off', default: 'off', help: 'with --instances/--workers: GAME_CACHE of every mode, each value in turn' },
  subscribers: { type: 'string', value: 'N', default: '0', help: 'with --instances: each level again with N gameLog subscribers over the instances' },
  'job-worker': { type: 'string', value: 'all|first', default: 'all', help: 'with --instances: first = JOB_WORKER=off on all instances but the first' },
  ws: { type: 'boolean', help: 'each level again with moves over each player’s graphql-ws socket instead of HTTP' },
  selection: { type: 'string', value: 'full|player', default: 'full', help: 'what makeMove selects: the table as a client draws it, or only what choosing the next move reads' },
  'without-expected-version': { type: 'boolean', help: 'send moves without expectedVersion (the server decides on the state it knows)' },
  'in-process': { type: 'boolean', help: 'run the server inside the load generator, not in its own process' },
  json: { type: 'string', value: 'FILE', help: 'also write every figure to FILE as JSON' },
  'server-cpu-prof': { type: 'string', value: 'DIR', help: 'the server process writes a --cpu-prof profile into DIR' },
  'server-alloc-prof': {
    type: 'string',
    value: 'DIR',
    help: 'the server process samples its allocations from when it listens (collected ones included) and writes a .heapprofile into DIR',
  },
  'server-node': { type: 'string', value: 'PATH', help: 'the Node.js binary that runs the server process (default: the one running this), e.g. another release' },
  'server-node-args': { type: 'string', value: '"ARGS"', help: 'more Node options for the server process, space-separated (or --server-node-args="ARGS")' },
  help: { type: 'boolean', short: 'h', help: 'print this and exit' },
} satisfies Record<string, Spec>;

/** Values that may begin with a dash (Node options), which parseArgs only takes in `--name=value` form. */
const DASHED_VALUES = ['--server-node-args'];

export function usage(): string {
  const rows = Object.entries(SPECS as Record<string, Spec>).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : ''}`;
    const fallback = name === 'help' ? '' : ` (default: ${spec.default ?? (spec.type === 'boolean' ? 'off' : 'none')})`;
    return [flag, `${spec.help}${fallback}`];
  });
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    'npm run bench:api -- [options]',
    '',
    'Many games played at once through GraphQL over HTTP against the server and its PostgreSQL',
    '(DATABASE_URL, or an embedded one in a temporary folder); see apps/api/bench/README.md.',
    '',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    '',
  ].join('\n');
}

/** The options, or null after --help was asked for; throws a UsageError for a bad option or value. */
export function parseOptions(argv: string[]): Options | null {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (DASHED_VALUES.includes(argv[i]) && i + 1 < argv.length) args.push(`${argv[i]}=${argv[++i]}`);
    else args.push(argv[i]);
  }
  const parse = () => parseArgs({ args, options: SPECS, strict: true, allowPositionals: false });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values;
  if (values.help) return null;

  const text = <K extends keyof typeof SPECS>(name: K): string => {
    const value = values[name];
    if (typeof value === 'string') return value;
    const fallback = (SPECS[name] as Spec).default;
    if (fallback === undefined) throw new Error(`--${name} has no default`);
    return fallback;
  };
  const number = (name: keyof typeof SPECS, raw: string, min: number, integer = false): number => {
    const value = raw.trim() === '' ? NaN : Number(raw);
    if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
      throw new UsageError(`--${name} needs ${integer ? 'an integer' : 'a number'} ≥ ${min}, not ${JSON.stringify(raw)}`);
    }
    return value;
  };
  const choice = <T extends string>(name: keyof typeof SPECS, allowed: readonly [T, T]): T => {
    const value = text(name);
    if (!(allowed as readonly string[]).includes(value)) {
      throw new UsageError(`--${name} takes ${allowed.join(' or ')}, not ${JSON.stringify(value)}`);
    }
    return value as T;
  };
  const nonEmpty = (name: keyof typeof SPECS): string | null => {
    const value = values[name];
    if (value === undefined) return null;
    if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} needs a value`);
    return value;
  };

  const preset = text('preset');
  if (!(PRESETS as readonly string[]).includes(preset)) throw new UsageError(`--preset: unknown preset ${JSON.stringify(preset)}; known: ${PRESETS.join(', ')}`);
  const options: Options = {
    levels: text('levels')
      .split(',')
      .map((level) => number('levels', level, 1, true)),
    seconds: number('seconds', text('seconds'), 1),
    warmup: number('warmup', text('warmup'), 0),
    maxMoves: number('max-moves', text('max-moves'), 1, true),
    commitSeconds: number('commit-seconds', text('commit-seconds'), 1),
    preset,
    inProcess: values['in-process'] === true,
    json: nonEmpty('json'),
    cpuProfDir: nonEmpty('server-cpu-prof'),
    allocProfDir: nonEmpty('server-alloc-prof'),
    serverNodeArgs: (values['server-node-args'] ?? '').split(/\s+/).filter(Boolean),
    serverNode: nonEmpty('server-node'),
    seed: number('seed', text('seed'), 0, true),
    thinkMs: number('think', text('think'), 0),
    correspondence: values.correspondence === true,
    clockSeconds: number('clock-seconds', text('clock-seconds'), 60, true),
    instances: number('instances', text('instances'), 1, true),
    workers: number('workers', text('workers'), 1, true),
    gameCache: text('game-cache')
      .split(',')
      .map((value) => {
        const v = value.trim();
        if (v !== 'on' && v !== 'off') throw new UsageError(`--game-cache takes on, off or on,off, not ${JSON.stringify(value)}`);
        return v;
      }),
    subscribers: number('subscribers', text('subscribers'), 0, true),
    withoutExpectedVersion: values['without-expected-version'] === true,
    selection: choice('selection', ['full', 'player'] as const),
    ws: values.ws === true,
    jobWorker: choice('job-worker', ['all', 'first'] as const),
  };
  const several = options.instances > 1 || options.workers > 1;
  if (several && (options.inProcess || options.correspondence || options.cpuProfDir || options.allocProfDir || options.ws || options.serverNode)) {
    throw new UsageError(
      '--instances/--workers run separate server processes, without --in-process, --correspondence, --ws, --server-cpu-prof, --server-alloc-prof or --server-node',
    );
  }
  if (options.subscribers > 0 && options.instances < 2) throw new UsageError('--subscribers needs --instances N (N ≥ 2)');
  if (options.inProcess && (options.cpuProfDir || options.allocProfDir || options.serverNodeArgs.length > 0 || options.serverNode)) {
    throw new UsageError(
      '--server-cpu-prof, --server-alloc-prof, --server-node and --server-node-args need the separate server process (not --in-process)',
    );
  }
  if (options.serverNode && !existsSync(options.serverNode)) throw new UsageError(`--server-node: no file ${options.serverNode}`);
  return options;
}
