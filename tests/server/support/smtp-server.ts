import net from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

export interface SmtpTestServer {
  url: string;
  received: ReceivedMail[];
  /** Sessions opened, accepted or not. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * Just enough SMTP (RFC 5321, no TLS, no auth) on 127.0.0.1 for nodemailer to deliver to.
 * `rejectWith`: the reply to every MAIL FROM (e.g. '451 4.3.0 Try again later'), so that nothing is accepted.
 */
export async function startSmtpTestServer(options: { rejectWith?: string } = {}): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 test.local ESMTP prêt');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: '', to: [], data: '' };
          reply('250 2.0.0 Ok: queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') reply('250-test.local\r\n250 8BITMIME');
        else if (verb === 'HELO') reply('250 test.local');
        else if (verb === 'MAIL') {
          if (options.rejectWith) reply(options.rejectWith);
          else {
            current.from = line.slice(10).trim();
            reply('250 2.1.0 Ok');
          }
        } else if (verb === 'RCPT') {
          current.to.push(line.slice(8).trim());
          reply('250 2.1.5 Ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') {
          current = { from: '', to: [], data: '' };
          reply('250 2.0.0 Ok');
        } else if (verb === 'QUIT') {
          reply('221 2.0.0 Bye');
          socket.end();
        } else reply('502 5.5.2 Command not recognized');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
