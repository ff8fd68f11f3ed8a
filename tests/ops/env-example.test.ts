// .env.example lists every setting the server reads, so that an operator finds them all in one place.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** What the system sets, not the operator (admin:create names who ran it from USER); NODE_OPTIONS is Node.js's own (server/runtime.ts looks for the memory flags in it). */
const SYSTEM_VARIABLES = new Set(['USER', 'LOGNAME', 'HOME', 'HOSTNAME', 'PATH', 'NODE_OPTIONS']);

/** Names read with required(env, 'X'), optional(env, 'X'), env.X or process.env.X anywhere in server/. */
function settingsReadByTheServer(): string[] {
  const names = new Set<string>();
  for (const file of filesUnder('server')) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:required|optional|[a-zA-Z]+Setting)\(env, '([A-Z][A-Z0-9_]*)'/g)) names.add(match[1]!);
    for (const match of text.matchAll(/\b(?:process\.)?env\.([A-Z][A-Z0-9_]*)/g)) names.add(match[1]!);
  }
  return [...names].filter((name) => !SYSTEM_VARIABLES.has(name)).sort();
}

describe('.env.example', () => {
  const listed = new Set([...fs.readFileSync('.env.example', 'utf8').matchAll(/^#?\s?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));

  it('lists every setting the server reads, with a comment above it', () => {
    const read = settingsReadByTheServer();
    expect(read.length).toBeGreaterThan(25);
    expect(read.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('explains each setting it lists', () => {
    const lines = fs.readFileSync('.env.example', 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (!/^[A-Z][A-Z0-9_]*=/.test(line)) return;
      // Above a setting: its comment, or another setting of the same group under one comment.
      const above = lines.slice(0, index).reverse().find((l) => !/^#?\s?[A-Z][A-Z0-9_]*=/.test(l));
      expect(above, line).toMatch(/^# \S/);
    });
  });
});
