// The local provider's keys, shared by every node that shares the data folder: a token one node signs is
// verified by the others, and nodes starting together on an empty folder agree on one key.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSigningKeys } from '../../server/dev-idp/signing-keys.ts';

describe('the local provider’s signing keys', () => {
  const dirs: string[] = [];
  const folder = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-keys-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives processes starting together on an empty folder one and the same key and secrets', async () => {
    const dir = folder();
    const loaded = await Promise.all(Array.from({ length: 6 }, () => loadSigningKeys(dir)));
    for (const keys of loaded) expect(keys).toEqual(loaded[0]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'oidc', 'signing-keys.json'), 'utf8')).privateJwks).toEqual(loaded[0]!.privateJwks);
    expect(fs.readdirSync(path.join(dir, 'oidc'))).toEqual(['signing-keys.json']);
  });

  it('reads the same keys again after a restart', async () => {
    const dir = folder();
    const first = await loadSigningKeys(dir);
    expect(await loadSigningKeys(dir)).toEqual(first);
  });
});
