// Readers for the deployment files (docker-compose.yml, deploy/nginx.conf, Dockerfile), just
// enough of each format for test/deploy/compose.test.ts to hold them against the code. Anything
// they do not understand is an error, not a silent guess.
import { load } from 'js-yaml';

// ---------------------------------------------------------------------------------------------
// docker-compose.yml

export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | number | { target: number; published?: string | number })[];
  volumes?: (string | { type?: string; source?: string; target: string; read_only?: boolean })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  deploy?: { replicas?: number };
  container_name?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export function parseCompose(text: string): ComposeFile {
  const doc = load(text) as ComposeFile | null;
  if (!doc || typeof doc !== 'object' || !doc.services) throw new Error('docker-compose.yml has no services');
  return doc;
}

/**
 * Compose's interpolation (`$$`, `$NAME`, `${NAME}`, `${NAME:-default}`, `${NAME-default}`,
 * `${NAME:?error}`, `${NAME?error}`, `${NAME:+alt}`, `${NAME+alt}`) over every string value, as
 * `docker compose config` does it. Throws like Compose for a required variable that is missing.
 */
export function interpolate<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === 'string') return interpolateText(value, env) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => interpolate(item, env)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env)])) as T;
  }
  return value;
}

const REFERENCE = /\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}$]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

function interpolateText(text: string, env: Record<string, string | undefined>): string {
  if (text.replace(REFERENCE, '').includes('$')) throw new Error(`an interpolation this reader does not understand (nested?) in "${text}"`);
  return text.replace(REFERENCE, (_match, dollar?: string, braced?: string, op?: string, word?: string, bare?: string) => {
    if (dollar) return '$'; // `$$`: a literal `$` (replace never reads its own output again)
    const name = (braced ?? bare) as string;
    const raw = env[name];
    const set = raw !== undefined;
    const nonEmpty = set && raw !== '';
    switch (op) {
      case undefined:
        return raw ?? '';
      case ':-':
        return nonEmpty ? raw : (word ?? '');
      case '-':
        return set ? raw : (word ?? '');
      case ':?':
        if (!nonEmpty) throw new Error(`required variable ${name} is missing a value: ${word}`);
        return raw;
      case '?':
        if (!set) throw new Error(`required variable ${name} is missing a value: ${word}`);
        return raw;
      case ':+':
        return nonEmpty ? (word ?? '') : '';
      case '+':
        return set ? (word ?? '') : '';
      default:
        throw new Error(`unsupported interpolation ${op} in "${text}"`);
    }
  });
}

/** The names every `${…}` and `$NAME` of the text refers to (`$$` is not one). */
export function referencedVariables(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(REFERENCE)) {
    const name = match[2] ?? match[5];
    if (name) names.add(name);
  }
  return names;
}

/** A service's `environment`, map or `KEY=VALUE` list, as strings (YAML numbers and booleans as Compose writes them). */
export function environmentOf(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const eq = entry.indexOf('=');
        return eq < 0 ? [entry, ''] : [entry.slice(0, eq), entry.slice(eq + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value === null ? '' : String(value)]));
}

export function dependenciesOf(service: ComposeService): string[] {
  const deps = service.depends_on ?? [];
  return Array.isArray(deps) ? deps : Object.keys(deps);
}

/** Container ports a service publishes on the host, short (`[ip:]host:container[/proto]`) or long syntax. */
export function publishedContainerPorts(service: ComposeService): number[] {
  return (service.ports ?? []).map((entry) => {
    if (typeof entry === 'number') return entry;
    if (typeof entry === 'object') return Number(entry.target);
    const parts = entry.replace(/\/(tcp|udp)$/, '').split(':');
    return Number(parts[parts.length - 1]);
  });
}

/** The healthcheck's command as one string (exec form joined, shell form as is); '' when there is none. */
export function healthCommand(service: ComposeService): string {
  const check = service.healthcheck;
  if (!check || check.disable) return '';
  const test = check.test;
  if (test === undefined) return '';
  if (typeof test === 'string') return test;
  if (test[0] === 'NONE') return '';
  return (test[0] === 'CMD' || test[0] === 'CMD-SHELL' ? test.slice(1) : test).join(' ');
}

/** Every http(s) URL in a text: [port, path]. */
export function urlsIn(text: string): { url: URL; port: number }[] {
  return [...text.matchAll(/https?:\/\/[^\s'"`)]+/g)].map(([raw]) => {
    const url = new URL(raw);
    return { url, port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port) };
  });
}

// ---------------------------------------------------------------------------------------------
// nginx

export interface NginxDirective {
  name: string;
  args: string[];
  block?: NginxDirective[];
}

/** nginx's configuration syntax: directives, `{ … }` blocks, quotes, `#` comments. */
export function parseNginx(text: string): NginxDirective[] {
  const tokens: string[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '{' || c === '}' || c === ';') {
      tokens.push(c);
      i++;
    } else if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new Error('nginx: an unterminated quote');
      tokens.push(text.slice(i + 1, end));
      i = end + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s{};]/.test(text[j])) j++;
      tokens.push(text.slice(i, j));
      i = j;
    }
  }
  let at = 0;
  const block = (nested: boolean): NginxDirective[] => {
    const list: NginxDirective[] = [];
    while (at < tokens.length) {
      if (tokens[at] === '}') {
        if (!nested) throw new Error('nginx: an unmatched }');
        at++;
        return list;
      }
      const words: string[] = [];
      while (at < tokens.length && !['{', '}', ';'].includes(tokens[at])) words.push(tokens[at++]);
      const end = tokens[at++];
      if (words.length === 0) throw new Error(`nginx: an empty directive before "${end}"`);
      if (end === ';') list.push({ name: words[0], args: words.slice(1) });
      else if (end === '{') list.push({ name: words[0], args: words.slice(1), block: block(true) });
      else throw new Error(`nginx: "${words.join(' ')}" is not ended by ;`);
    }
    if (nested) throw new Error('nginx: a block is not closed');
    return list;
  };
  return block(false);
}

export interface NginxLocation {
  modifier: '' | '=' | '~' | '~*' | '^~';
  path: string;
  directives: NginxDirective[];
}

export interface NginxServer {
  directives: NginxDirective[];
  locations: NginxLocation[];
}

export function serversOf(http: NginxDirective[]): NginxServer[] {
  return http
    .filter((d) => d.name === 'server' && d.block)
    .map((server) => ({
      directives: server.block!,
      locations: server.block!
        .filter((d) => d.name === 'location')
        .map((d) => {
          const [modifier, path] = d.args.length === 2 ? d.args : ['', d.args[0]];
          if (!['', '=', '~', '~*', '^~'].includes(modifier)) throw new Error(`nginx: location modifier ${modifier}`);
          if (d.block!.some((inner) => inner.name === 'location')) throw new Error(`nginx: nested locations under ${path} are not read here`);
          return { modifier: modifier as NginxLocation['modifier'], path, directives: d.block! };
        }),
    }));
}

/** The location nginx picks for a URI: `=` exact, else the longest prefix unless a regex (in order) matches. */
export function locationFor(server: NginxServer, uri: string): NginxLocation | undefined {
  const exact = server.locations.find((l) => l.modifier === '=' && l.path === uri);
  if (exact) return exact;
  const prefix = server.locations
    .filter((l) => (l.modifier === '' || l.modifier === '^~') && uri.startsWith(l.path))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (prefix?.modifier === '^~') return prefix;
  const regex = server.locations.find((l) => (l.modifier === '~' || l.modifier === '~*') && new RegExp(l.path, l.modifier === '~*' ? 'i' : '').test(uri));
  return regex ?? prefix;
}

/**
 * A directive's values in a location as nginx inherits them: from the innermost level that sets it
 * at all (location, then server, then http). For array directives such as proxy_set_header this is
 * nginx's rule too: a level that sets one inherits none.
 */
export function effective(http: NginxDirective[], server: NginxServer, location: NginxLocation, name: string): string[][] {
  for (const level of [location.directives, server.directives, http]) {
    const found = level.filter((d) => d.name === name && !d.block);
    if (found.length > 0) return found.map((d) => d.args);
  }
  return [];
}

/** nginx's time syntax (`90`, `90s`, `5m`, `1h`, `500ms`, `1h30m`) in milliseconds. */
export function nginxMs(value: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, M: 2_592_000_000, y: 31_536_000_000 };
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const parts = [...value.matchAll(/(\d+)(ms|s|m|h|d|w|M|y)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== value) throw new Error(`nginx: not a time: ${value}`);
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * units[unit], 0);
}

// ---------------------------------------------------------------------------------------------
// Dockerfile

export interface DockerInstruction {
  keyword: string;
  args: string;
}

/** The instructions of each stage (a stage starts at FROM), continuation lines joined. */
export function dockerStages(text: string): DockerInstruction[][] {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: DockerInstruction[][] = [];
  for (const line of lines) {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === 'FROM') stages.push([]);
    if (stages.length === 0) continue; // ARG before the first FROM
    stages[stages.length - 1].push(instruction);
  }
  return stages;
}

/** `ENV A=1 B=2` or `ENV A 1` as a map. */
export function dockerEnv(stage: DockerInstruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of stage) {
    if (keyword !== 'ENV') continue;
    if (!args.includes('=')) {
      const [key, ...rest] = args.split(/\s+/);
      env[key] = rest.join(' ');
      continue;
    }
    for (const [, key, quoted, plain] of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|(\S*))/g)) env[key] = quoted ?? plain;
  }
  return env;
}
