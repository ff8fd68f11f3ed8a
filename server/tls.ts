import fs from 'node:fs/promises';
import path from 'node:path';
import { generate } from 'selfsigned';
import type { ServerConfig } from './config.ts';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** Where the certificate lies, so that a person can trust it (README). */
  certFile: string | null;
}

/**
 * The https material of the server. MSAL refuses a non-https authority, so the
 * local set-up makes (once, kept in the data folder) a self-signed certificate
 * for localhost, 127.0.0.1 and ::1.
 */
export async function loadTls(config: ServerConfig): Promise<TlsMaterial | null> {
  const tls = config.tls;
  if (tls.mode === 'off') return null;
  if (tls.mode === 'files') {
    return { cert: await fs.readFile(tls.certFile, 'utf8'), key: await fs.readFile(tls.keyFile, 'utf8'), certFile: tls.certFile };
  }
  const certFile = path.join(config.dataDir, 'tls', 'localhost.crt');
  const keyFile = path.join(config.dataDir, 'tls', 'localhost.key');
  try {
    return { cert: await fs.readFile(certFile, 'utf8'), key: await fs.readFile(keyFile, 'utf8'), certFile };
  } catch {
    const now = new Date();
    const pems = await generate([{ name: 'commonName', value: 'localhost' }, { name: 'organizationName', value: 'Portail Habilitations (local)' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now.getTime() - 60_000),
      notAfterDate: new Date(now.getTime() + 825 * 24 * 3600_000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
      ],
    });
    await fs.mkdir(path.dirname(certFile), { recursive: true });
    await fs.writeFile(keyFile, pems.private, { mode: 0o600 });
    await fs.writeFile(certFile, pems.cert);
    return { cert: pems.cert, key: pems.private, certFile };
  }
}
