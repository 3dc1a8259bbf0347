// A tiny SMTP server for tests of mail that fails and comes back: it speaks just enough SMTP for
// lettre (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT, no TLS, no auth) and keeps every message.
//
//   const smtp = smtpFake(await freePort());   // not listening yet: sends are refused
//   ... env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url } ...
//   await smtp.start();                          // the server comes back
//   await until('the mail', () => smtp.messages.find((m) => m.to.includes(email)));
import net from 'node:net';

/** An SMTP server for `port` on 127.0.0.1, started by `start()`, stopped by `stop()`. */
export function smtpFake(port) {
  const messages = [];
  const sockets = new Set();
  let server = null;

  function serve(socket) {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const say = (line) => socket.write(`${line}\r\n`);
    let buffer = '';
    let data = null; // the message being received after DATA
    let envelope = { from: '', to: [] };
    say('220 smtp-fake ready');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          data += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          messages.push({ from: envelope.from, to: envelope.to, raw: data });
          data = null;
          envelope = { from: '', to: [] };
          say('250 OK queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-smtp-fake\r\n250 8BITMIME\r\n');
        else if (verb === 'HELO') say('250 smtp-fake');
        else if (verb === 'MAIL') {
          envelope.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          say('250 OK');
        } else if (verb === 'RCPT') {
          envelope.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          say('250 OK');
        } else if (verb === 'DATA') {
          data = '';
          say('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          say('221 Bye');
          socket.end();
        } else say('250 OK'); // RSET, NOOP and anything else
      }
    });
  }

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    /** Every message received: { from, to: [addresses], raw }. */
    messages,
    start: () =>
      new Promise((resolve, reject) => {
        server = net.createServer(serve);
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    /** Stops listening and drops every connection: sends are refused again. */
    stop: () =>
      new Promise((resolve) => {
        if (!server) return resolve();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
        server = null;
      }),
  };
}
