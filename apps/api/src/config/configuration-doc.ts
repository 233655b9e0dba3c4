import { SETTINGS, type Setting } from './app-config.js';
import { NOT_SETTINGS } from './not-settings.js';
import { SECTIONS } from './settings.js';

/** The path of the generated document, from the repository's root. */
export const CONFIGURATION_DOC = 'docs/configuration.md';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function table(settings: readonly Setting[]): string[] {
  return [
    '| Variable | Default | Values | What it does |',
    '| --- | --- | --- | --- |',
    ...settings.map(({ meta }) => {
      const fallback = meta.default !== undefined ? `\`${meta.default}\`` : (meta.defaultText ?? '');
      return `| \`${meta.variable}\` | ${cell(fallback)} | ${cell(meta.values)} | ${cell(meta.description)} |`;
    }),
  ];
}

/** docs/configuration.md, made from the settings' schema (`npm run docs:config` writes it). */
export function configurationDoc(): string {
  const inSection = (section: string) => SETTINGS.filter((s) => s.meta.section === section);
  const tuning = Object.entries(SECTIONS).filter(([section]) => section !== 'operator');
  const respelled = SETTINGS.filter((s) => s.meta.respell !== undefined).map((s) => `\`${s.meta.variable}\``);
  const renamed = SETTINGS.filter((s) => s.meta.replaces !== undefined);
  const lines = [
    '# Configuration',
    '',
    '<!-- Made from apps/api/src/config/settings.ts by `npm run docs:config`: edit that file, not this one. -->',
    '',
    'The server reads its settings from environment variables, once, at start. A bad value stops it',
    'with a message naming every bad variable, what it expected and what it got',
    '(`PORT: expected a whole number from 0 to 65535, got "70000"`). A blank value is unset.',
    '',
    '- A flag is `true` or `false`.',
    '- A duration is in seconds, its variable ends in `_SECONDS`; where less than a second matters,',
    '  it takes up to three decimals (`0.05`).',
    '',
    `## ${SECTIONS.operator}`,
    '',
    'What a deployment sets (docker-compose.yml sets most of them); the defaults suit one server on',
    'one machine, with its own PostgreSQL.',
    '',
    ...table(inSection('operator')),
    '',
    '## Tuning',
    '',
    'Limits and timings whose defaults serve most deployments.',
    ...tuning.flatMap(([section, title]) => ['', `### ${title}`, '', ...table(inSection(section))]),
    '',
    '## Old spellings',
    '',
    'Still read, for now; the server says at start, once for each such variable, what to write instead',
    '(with `WORKERS`, the first process says it).',
    '',
    '| Was | Now |',
    '| --- | --- |',
    `| \`on\`, \`off\` (${respelled.join(', ')}) | \`true\`, \`false\` |`,
    ...renamed.map(({ meta }) => `| \`${meta.replaces!.variable}\` (${meta.replaces!.expected.replace(/^a whole number of /, '')}) | \`${meta.variable}\` (seconds) |`),
    '',
    '## Variables that are not settings of the server',
    '',
    'Read by the tests, the benchmarks, the scripts or between the server\'s own processes; the server',
    'itself reads none of them from an operator.',
    '',
    '| Variable | Read by | What it does |',
    '| --- | --- | --- |',
    ...NOT_SETTINGS.map((v) => `| \`${v.variable}\` | ${cell(v.readBy)} | ${cell(v.description)} |`),
  ];
  return `${lines.join('\n')}\n`;
}
