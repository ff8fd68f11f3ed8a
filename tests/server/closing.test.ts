// While the server closes (SIGTERM, server/main.ts), a request still arriving on a connection it had
// taken (here pipelined behind a request under way) gets the portal's 503: French error body,
// Retry-After, and its connection closed; the request under way finishes normally.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { SERVER_CLOSING_MESSAGE } from '../../server/plugins/closing.ts';
import { startTestApp } from './support/test-app.ts';
import { PERSONAS } from './support/users-api.ts';

describe('a request arriving while the server closes', () => {
  it('gets 503 with the error body in French, Retry-After and Connection: close', async () => {
    const t = await startTestApp({ name: 'pglite' });
    const token = await t.tokenFor(PERSONAS.backoffice);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const body = JSON.stringify({ reason: 'x' });
    // A request under way: its body not sent yet.
    socket.write(`POST /api/v2/invitations/999999/reject HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closed = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Its body, then a second request on the same connection.
    socket.write(`${body}GET /api/v2/users/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    await ended;
    await closed;
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).not.toMatch(/^HTTP\/1\.1 503/);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(answers[1]).toMatch(/\r\nretry-after: 5\r\n/i);
    expect(answers[1]).toMatch(/\r\nconnection: close\r\n/i);
    const json = JSON.parse(answers[1]!.slice(answers[1]!.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(json).toMatchObject({ error: 'ServiceUnavailable', message: SERVER_CLOSING_MESSAGE });
    expect(json.requestId).toEqual(expect.any(String));
  });
});
