import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema, isInputObjectType, isNonNullType, isObjectType, type GraphQLSchema } from 'graphql';
import { breakingRestChanges } from './openapi-diff.js';

/**
 * The API contract: the committed apps/api/schema.graphql and apps/api/openapi.json, compared with
 * the copies kept of the last release (apps/api/contract/<version>/). A breaking change passes only
 * when CHANGELOG.md lists it, word for word, under a new major version that package.json has.
 * docs/api.md#versioning-and-compatibility says what counts as breaking.
 */

export interface Contract {
  graphql: string;
  openapi: object;
}

/** Each breaking change from `before` to `after`, as "GraphQL: …" or "REST: …" sentences. */
export async function breakingChanges(before: Contract, after: Contract): Promise<string[]> {
  const afterSchema = buildSchema(after.graphql);
  const changes = await diff(buildSchema(before.graphql), afterSchema);
  const graphql = changes.flatMap((change) => {
    const at = change.path ? `${change.path}: ` : '';
    if (defaultDropped(change, afterSchema)) {
      const old = (change.meta as { oldDefaultValue?: string }).oldDefaultValue;
      return [`GraphQL: ${at}the default ${old} was removed from a non-null ${change.type.startsWith('FIELD') ? 'argument' : 'input field'}: clients must now send it`];
    }
    return change.criticality.level === CriticalityLevel.Breaking ? [`GraphQL: ${at}${change.message}`] : [];
  });
  return [...graphql, ...breakingRestChanges(before.openapi, after.openapi)];
}

/**
 * graphql-inspector calls a changed default "dangerous"; but a non-null argument or input field
 * whose default is dropped must now be sent: a new requirement, so breaking.
 */
function defaultDropped(change: { type: string; meta?: unknown }, after: GraphQLSchema): boolean {
  const meta = change.meta as Record<string, string | undefined> | undefined;
  if (!meta || meta.newDefaultValue !== undefined) return false;
  if (change.type === 'FIELD_ARGUMENT_DEFAULT_CHANGED') {
    const owner = after.getType(meta.typeName ?? '');
    const argument = isObjectType(owner) ? owner.getFields()[meta.fieldName ?? '']?.args.find((a) => a.name === meta.argumentName) : undefined;
    return argument !== undefined && isNonNullType(argument.type);
  }
  if (change.type === 'INPUT_FIELD_DEFAULT_VALUE_CHANGED') {
    const owner = after.getType(meta.inputName ?? '');
    const field = isInputObjectType(owner) ? owner.getFields()[meta.inputFieldName ?? ''] : undefined;
    return field !== undefined && isNonNullType(field.type);
  }
  return false;
}

export interface Version {
  major: number;
  minor: number;
  patch: number;
  text: string;
}

export function parseVersion(text: string): Version {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a version (MAJOR.MINOR.PATCH)`);
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), text };
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** The sections of a Keep a Changelog file: `## [1.2.0] - 2026-12-02` → its list items. */
export function changelogSections(markdown: string): { version: string; entries: string[] }[] {
  const sections: { version: string; entries: string[] }[] = [];
  for (const line of markdown.split('\n')) {
    const heading = /^## \[([^\]]+)\]/.exec(line);
    if (heading) sections.push({ version: heading[1], entries: [] });
    else if (sections.length > 0 && /^\s*[-*] /.test(line)) sections[sections.length - 1].entries.push(line.replace(/^\s*[-*] /, '').trim());
    else if (sections.length > 0 && /^\s{2,}\S/.test(line) && sections[sections.length - 1].entries.length > 0) {
      // A list item wrapped over several lines.
      const entries = sections[sections.length - 1].entries;
      entries[entries.length - 1] += ` ${line.trim()}`;
    }
  }
  return sections;
}

export interface ContractVerdict {
  /** Breaking changes that no new major version records: the check fails on these. */
  unannounced: string[];
  /** Breaking changes recorded under a new major version in CHANGELOG.md. */
  announced: string[];
  /** Everything else wrong: versions out of order, a major in the changelog package.json lacks. */
  problems: string[];
}

/**
 * Judges the current contract against the kept one. A breaking change is announced when an entry
 * of CHANGELOG.md under a version of a greater major than the kept copy's contains its sentence,
 * and package.json's version has reached that major.
 */
export async function judgeContract(input: {
  kept: Contract & { version: string };
  current: Contract & { version: string };
  changelog: string;
}): Promise<ContractVerdict> {
  const kept = parseVersion(input.kept.version);
  const current = parseVersion(input.current.version);
  const problems: string[] = [];
  if (compareVersions(current, kept) < 0) problems.push(`package.json's version ${current.text} is older than the kept contract ${kept.text}`);

  const sections = changelogSections(input.changelog);
  const majors = sections
    .filter((s) => /^\d+\.\d+\.\d+$/.test(s.version) && parseVersion(s.version).major > kept.major)
    .map((s) => ({ version: parseVersion(s.version), entries: s.entries }));
  const announced: string[] = [];
  const unannounced: string[] = [];
  for (const change of await breakingChanges(input.kept, input.current)) {
    const section = majors.find((s) => s.entries.some((entry) => entry.includes(change)));
    if (!section) unannounced.push(change);
    else if (current.major < section.version.major) {
      problems.push(`CHANGELOG.md announces "${change}" in ${section.version.text}, but package.json's version is ${current.text}`);
    } else announced.push(change);
  }
  return { unannounced, announced, problems };
}

/** A contract as committed: the repository's two files, or a kept release's copies. */
export function readContract(dir: string, names = { graphql: 'schema.graphql', openapi: 'openapi.json' }): Contract {
  return {
    graphql: readFileSync(join(dir, names.graphql), 'utf8'),
    openapi: JSON.parse(readFileSync(join(dir, names.openapi), 'utf8')) as object,
  };
}

/** The newest release kept under apps/api/contract/ (folders named by version). */
export function latestKeptVersion(contractDir: string): string {
  const versions = readdirSync(contractDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d+\.\d+\.\d+$/.test(entry.name))
    .map((entry) => parseVersion(entry.name))
    .sort(compareVersions);
  if (versions.length === 0) throw new Error(`no release kept under ${contractDir}`);
  return versions[versions.length - 1].text;
}

/** The failure message: every breaking change by name, and what to do instead. */
export function explain(verdict: ContractVerdict, keptVersion: string): string {
  const lines = [
    `The API contract breaks the ${keptVersion} release's (apps/api/contract/${keptVersion}/):`,
    ...verdict.unannounced.map((change) => `  - ${change}`),
    ...verdict.problems.map((problem) => `  - ${problem}`),
    'Deprecate instead of removing (docs/api.md#versioning-and-compatibility), or announce each change, word for word,',
    'under a new major version in CHANGELOG.md and give package.json that version.',
  ];
  return lines.join('\n');
}
